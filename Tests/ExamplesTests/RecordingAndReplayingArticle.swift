// The code of the article "Recording and replaying traffic" (Sources/NetPlugins/NetPlugins.docc/RecordingAndReplaying.md), block by block: ArticleTwinTests
// requires this file to open with the article's first block and to import nothing else, so the
// article compiles as a reader pastes it.
import Foundation
import NetCore
import NetPlugins

/// Sends requests that `fixture` does not hold yet to the network and appends the answers.
func recordingProvider<API: TargetType>(for api: API.Type, fixture: URL) throws -> Provider<API> {
    let transport = try ReplayTransport(
        har: fixture, mode: .recordWhenMissing(transport: DefaultTransport.shared, to: fixture))
    return Provider<API>(transport: transport)
}

/// Answers only from `fixture`; a request it does not hold fails, naming the closest recording.
func replayingProvider<API: TargetType>(for api: API.Type, fixture: URL) throws -> Provider<API> {
    Provider<API>(transport: try ReplayTransport(har: fixture))
}

/// Writes every attempt a provider with `capture` among its plugins made, as HAR 1.2.
func saveTraffic(of capture: CapturePlugin, to file: URL) throws {
    try capture.harData().write(to: file)
}
