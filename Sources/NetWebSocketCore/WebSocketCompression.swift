import NetBase
/// permessage-deflate's payload transformation (RFC 7692, section 7.2) for one connection,
/// as ``WebSocketConnectionStateMachine`` uses it: a transport that negotiated the extension
/// passes one (the curl transport's is zlib's raw deflate, `CurlWebSocketDeflate`).
///
/// It holds two streams that keep state between messages (the context takeover), so it is a
/// class used by one connection on one thread; it frees its streams when released.
package protocol WebSocketCompression: AnyObject {
    /// `payload` compressed as one message (section 7.2.1: a sync flush, its trailing
    /// `00 00 FF FF` removed), or `nil` to send it uncompressed (RSV1 clear), which section 6
    /// allows for any message.
    func compress(_ payload: [UInt8]) -> [UInt8]?

    /// Inflates one frame's payload of a compressed message onto `output`, in bounded chunks,
    /// and ends the message (section 7.2.2: `00 00 FF FF` appended) when `isFinal`.
    /// - Parameter limit: The most bytes `output` may hold; inflating stops past it, so at most
    ///   `limit` plus one chunk is ever held.
    /// - Throws: 1009 (``WebSocket/CloseCode/messageTooBig``) past `limit`; 1007
    ///   (``WebSocket/CloseCode/invalidFramePayloadData``) for data that is not raw deflate.
    func inflate(_ payload: [UInt8], isFinal: Bool, limit: Int, into output: inout [UInt8]) throws(WebSocketProtocolViolation)
}
