import NetCore
