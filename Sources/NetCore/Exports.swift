// `import NetCore` is the one import a user needs: it brings the values and contracts (NetBase),
// the URLSession transport (NetURLSession) and, on Linux, the libcurl engine (NetCurl).
// Whole modules, not a list of names as in Hummingbird's Exports.swift: every helper these modules share
// with each other is `package`, so they re-export only what a user needs (API/*.txt lists it), and
// a type added to NetBase cannot be left out here by mistake.
@_exported import NetBase
@_exported import NetCurl
@_exported import NetURLSession
