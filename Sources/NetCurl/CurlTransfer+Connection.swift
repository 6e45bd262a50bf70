#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    extension CurlTransfer {
        // MARK: Deadlines and connections

        /// Fails the transfer with `.timedOut` when a response received whole (or a stream's head)
        /// is past its deadline; called from the callbacks, which run for every chunk.
        func stopsAtDeadline() -> Bool {
            guard !headDelivered, job.deadline <= .now else { return false }
            fail(.timedOut)
            return true
        }

        /// Opens the socket of a new connection for libcurl, through the transport's registry.
        func openSocket(_ address: curl_sockaddr) -> curl_socket_t {
            guard let socket = engine.sockets.open(family: address.family, type: address.socktype, protocol: address.protocol) else {
                return -1
            }
            socketID = socket.id
            return socket.descriptor
        }

        /// Records the connection a response arrives on (a reused one was not opened by this transfer).
        func noteConnection() {
            var descriptor: curl_socket_t = -1
            guard netkit_easy_getinfo_socket(handle.easy, CURLINFO_ACTIVESOCKET, &descriptor) == CURLE_OK, descriptor >= 0 else { return }
            socketID = engine.sockets.id(of: descriptor) ?? socketID
        }

        /// The transfer's connection was cut off for `reason`; it explains the failure libcurl reports.
        func blame(_ reason: NetworkError) {
            guard callbackError == nil else { return }
            // No status line from the origin yet: through a proxy, the captor was the proxy (its
            // answer to CONNECT never reaches the header callback).
            if statusCode == 0, let proxy = CurlProxy.server(for: request, configuration: configuration) {
                fail(
                    .proxyFailed(
                        proxy: proxy.address,
                        reason: "the proxy kept sending without completing its answer (endless CONNECT headers?); the connection was closed"))
            } else {
                fail(reason)
            }
        }
    }
#endif
