"""State the HTTP/1.1 fault server's endpoint groups share: one lock for all counters, and the
per-key counters of /counter/* (which /huge-length?key= also writes)."""

import threading

lock = threading.Lock()
counters = {}   # key -> requests (/counter/hit, /counter/slow) or bytes sent (/huge-length)
