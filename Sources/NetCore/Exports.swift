// `import NetCore` is the one import a user needs: it brings the values and contracts (NetBase),
// the URLSession transport (NetURLSession) and, on Linux, the libcurl engine (NetCurl).
@_exported import NetBase
@_exported import NetCurl
@_exported import NetURLSession
