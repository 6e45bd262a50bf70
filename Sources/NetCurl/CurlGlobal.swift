#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// `curl_global_init`, exactly once per process.
    enum CurlGlobal {
        private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

        static func ensureInitialized() {
            precondition(initialized, "NetCurl: curl_global_init failed")
        }
    }
#endif
