import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

// A WebSocket echo server on SwiftNIO for the WebSocket peer benchmark (`NetBenchmarks
// --websocket-peer`): every data frame comes back as it arrived, pings are answered, a close is
// echoed. Fast enough that the clients, not the server, set the pace (the Python echo server of
// the test suite is not). Prints its port on the first line; runs until killed.
//   WebSocketEchoServer [port]

/// Echoes each data frame, answers pings, and echoes the close.
final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            let echo = WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: frame.unmaskedData)
            context.write(wrapOutboundOut(echo), promise: nil)
        case .ping:
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in context.close(promise: nil) }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let upgrader = NIOWebSocketServerUpgrader(
    maxFrameSize: 1 << 24, automaticErrorHandling: true,
    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
    upgradePipelineHandler: { channel, _ in
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(EchoHandler()) }
    })
let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 8192)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
    }
    .bind(host: "127.0.0.1", port: port).get()
// Written straight to the descriptor: `print` would sit in stdio's buffer behind a pipe.
FileHandle.standardOutput.write(Data("\(server.localAddress?.port ?? 0)\n".utf8))
try await server.closeFuture.get()
