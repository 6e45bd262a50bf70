import Foundation

/// An observer a package-trait integration keeps in ``ProviderConfiguration`` (a logger, metrics):
/// one that holds only settings so far (levels without a logger) is not installed, so a provider
/// that uses none makes no event.
package protocol IntegrationObserver: NetworkEventObserver {
    /// Whether the observer has something to do.
    var isActive: Bool { get }
}
