/// NetCurl is kept for code written against earlier releases: `CurlTransport` now lives in
/// NetCore (on Linux, where it is the default transport), and this module re-exports it, so
/// `import NetCurl` keeps compiling. New code needs only `import NetCore`.
@_exported import NetCore
