"""The HTTP/1.1 fault server's modules (scripts/fault_server.py puts them together): the core
(handler.py) and one module per group of endpoints, each listing the endpoints it serves in its
docstring. `scripts/fault_server.py --endpoints` prints them all."""
