#if canImport(CCurl)
    import NetBase
    import CCurl

    /// What an easy handle's callbacks reach and what it stays configured for across requests.
    ///
    /// The callbacks and their user data (this slot) are set once per handle; a request only
    /// points ``transfer`` at itself. The options that follow from ``CurlHandleProfile`` (TLS,
    /// proxy, protocols) stay set while consecutive requests share the profile, so a pooled handle
    /// is reset (`curl_easy_reset`) and set up again only when the profile changes. Loop thread only.
    final class CurlHandleSlot {
        /// The transfer the handle runs now; unretained (the loop's `active` table keeps it alive)
        /// and cleared when the handle goes back to the pool.
        var transfer: Unmanaged<CurlTransfer>?
        /// What the handle's options are set for, or `nil` when they must all be set (a new
        /// handle, or one whose setup failed halfway).
        var profile: CurlHandleProfile?
        /// The request before set proxy-only headers (`CURLOPT_PROXYHEADER`), which the next one clears.
        var hasProxyHeaders = false

        /// The running transfer, for a libcurl callback.
        @inline(__always)
        static func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
            Unmanaged<CurlHandleSlot>.fromOpaque(context!).takeUnretainedValue().transfer!.takeUnretainedValue()
        }
    }

    /// The options a handle keeps between requests: requests with equal profiles differ only in
    /// URL, method, headers, body, timeout and range.
    struct CurlHandleProfile: Equatable {
        /// HTTP/2 over TLS and stream weights apply.
        let isHTTPS: Bool
        /// The TLS policy's fingerprint (``CurlTLSFingerprint``), not the policy: an idle handle
        /// holds no `Data` of the request it ran.
        let tls: CurlTLSFingerprint?
        /// The proxy the request goes through (credentials included), or `nil` for none.
        let proxy: ProxyServer?
    }
#endif
