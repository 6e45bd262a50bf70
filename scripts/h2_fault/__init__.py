"""The HTTP/2 fault server's modules (scripts/h2_fault_server.py starts them): the connection
core, the TLS server and its routing table, and one module per group of endpoints, each listing
the endpoints it serves in its docstring. `scripts/h2_fault_server.py --endpoints` prints them all."""
