import Foundation

/// An observer a package-trait integration keeps in ``ProviderConfiguration`` (a logger, metrics),
/// and whether it has anything to do: one that holds only settings so far (levels without a
/// logger) is not installed, so a provider that uses none makes no event. (A plain value, not a
/// protocol the pipeline casts each observer to.)
package struct IntegrationObserver: Sendable {
    /// The observer.
    package var observer: any NetworkEventObserver
    /// Whether the provider installs it.
    package var isActive: Bool

    /// Wraps `observer`.
    package init(_ observer: any NetworkEventObserver, isActive: Bool = true) {
        self.observer = observer
        self.isActive = isActive
    }
}
