// NetOpenAPI: `NetKitTransport`, the swift-openapi-runtime `ClientTransport` that runs generated
// clients through a NetKit provider. Everything else in this module sits behind `#if OpenAPI`
// (the package trait), so a default build compiles an empty module and resolves no package.
@_exported import NetCore
