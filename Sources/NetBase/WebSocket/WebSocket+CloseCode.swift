extension WebSocket {
    /// A close status code (RFC 6455, section 7.4), with URLSession's names for the registered ones.
    ///
    /// Any `UInt16` can be held; ``isSendable`` and ``isValidFromPeer`` say which ones the
    /// protocol allows on the wire.
    public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's number.
        public let rawValue: UInt16

        /// Wraps any code's number.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// 1000: the purpose of the connection was fulfilled.
        public static let normalClosure = CloseCode(rawValue: 1000)
        /// 1001: the endpoint is going away (a server shutting down, a page left).
        public static let goingAway = CloseCode(rawValue: 1001)
        /// 1002: the endpoint saw a protocol error.
        public static let protocolError = CloseCode(rawValue: 1002)
        /// 1003: the endpoint received a type of data it cannot accept.
        public static let unsupportedData = CloseCode(rawValue: 1003)
        /// 1005: the close frame carried no code (never sent; reported only).
        public static let noStatusReceived = CloseCode(rawValue: 1005)
        /// 1006: the connection ended without a close frame (never sent; reported only).
        public static let abnormalClosure = CloseCode(rawValue: 1006)
        /// 1007: a text message was not valid UTF-8, or data did not match its type.
        public static let invalidFramePayloadData = CloseCode(rawValue: 1007)
        /// 1008: a message violated the endpoint's policy.
        public static let policyViolation = CloseCode(rawValue: 1008)
        /// 1009: a message was larger than the endpoint accepts.
        public static let messageTooBig = CloseCode(rawValue: 1009)
        /// 1010: the server did not negotiate an extension the client needs.
        public static let mandatoryExtensionMissing = CloseCode(rawValue: 1010)
        /// 1011: the server met an unexpected condition.
        public static let internalServerError = CloseCode(rawValue: 1011)

        /// Whether an endpoint may put this code in a close frame: 1000-1003, 1007-1014 and
        /// 3000-4999 (1004, 1005, 1006 and 1015 are reserved, 1016-2999 unassigned).
        public var isSendable: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014, 3000...4999: true
            default: false
            }
        }

        /// Whether a peer's close frame may carry this code; the same set as ``isSendable``.
        public var isValidFromPeer: Bool { isSendable }

        /// The number and, for registered codes, the name ("1000 normalClosure").
        public var description: String {
            let names: [UInt16: String] = [
                1000: "normalClosure", 1001: "goingAway", 1002: "protocolError", 1003: "unsupportedData",
                1005: "noStatusReceived", 1006: "abnormalClosure", 1007: "invalidFramePayloadData",
                1008: "policyViolation", 1009: "messageTooBig", 1010: "mandatoryExtensionMissing",
                1011: "internalServerError",
            ]
            return names[rawValue].map { "\(rawValue) \($0)" } ?? "\(rawValue)"
        }
    }
}
