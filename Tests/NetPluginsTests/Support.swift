import Foundation
import NetCore
import Testing
