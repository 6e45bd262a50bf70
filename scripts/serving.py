"""What every test server script does once its server is bound: say the port, serve until
stopped, release the socket. `scripts/servers.sh` reads the first stdout line, "PORT <n>"."""


def serve(server):
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
