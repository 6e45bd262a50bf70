// `import NetURLSession` brings `URLSessionTransport` with the values it sends and returns
// (NetBase); `Provider` and the pipeline come with `import NetCore`.
@_exported import NetBase
