# shellcheck shell=bash
# NetKit test servers: a library to `source` (bash), not to execute.
#
#   source scripts/servers.sh
#   netkit_install_deps [--bench]   # apt-get (or pip in a venv) whatever is missing; quick when present
#   netkit_start_servers            # httpbin, nginx (TLS + HTTP/2, plain HTTP, mutual TLS), fault server,
#                                   # HTTP/2 fault server, upload sink, strict mutual-TLS server, tinyproxy
#                                   # (open and BasicAuth), SOCKS5 proxy (open and user/password),
#                                   # intercepting (man-in-the-middle) proxy
#   ...                             # NETKIT_* variables are exported (see below)
#   netkit_stop_servers             # kills exactly the processes started above; safe to call twice
#
# Exported by netkit_start_servers:
#   NETKIT_HTTPBIN_URL   http://127.0.0.1:P   httpbin (gunicorn)
#   NETKIT_TLS_URL       https://127.0.0.1:P  nginx, TLS + HTTP/2, self-signed cert made per run
#   NETKIT_NGINX_URL     http://127.0.0.1:P   nginx, plain HTTP/1.1, same web root
#   NETKIT_TLS_CERT      path of cert.pem (trust it as CA / extra certificate)
#   NETKIT_TLS_PIN       base64 SHA-256 of the cert's SPKI (libcurl pin is "sha256//$NETKIT_TLS_PIN")
#   NETKIT_FAULT_URL     http://127.0.0.1:P   scripts/fault_server.py
#   NETKIT_H2_FAULT_URL  https://127.0.0.1:P  scripts/h2_fault_server.py: misbehaving HTTP/2 (ALPN h2 only),
#                                             same certificate as nginx (NETKIT_TLS_CERT)
#   NETKIT_SINK_URL      http://127.0.0.1:P   scripts/upload_sink.py
#   NETKIT_WEBROOT       nginx web root (small.json, bytes-1m.bin; drop big files here)
#   NETKIT_MTLS_URL      https://127.0.0.1:P  nginx, ssl_verify_client on (no/untrusted client cert: 400);
#                                             /whoami answers the client certificate's subject ("CN=client")
#   NETKIT_MTLS_STRICT_URL https://127.0.0.1:P scripts/mtls_handshake_server.py: CERT_REQUIRED, so a missing or
#                                             untrusted client cert fails the TLS handshake; answers the subject
#   NETKIT_MTLS_CA       path of the CA (PEM) made per run: it signed both mTLS servers' and the client's certs
#   NETKIT_CLIENT_CERT   path of the client certificate (PEM, CN=client, signed by NETKIT_MTLS_CA)
#   NETKIT_CLIENT_KEY    path of its private key (PEM, unencrypted)
#   NETKIT_CLIENT_P12    the same identity as PKCS#12, password "secret"
#   NETKIT_OTHER_CLIENT_CERT / NETKIT_OTHER_CLIENT_KEY  a self-signed client cert (CN=stranger) that no
#                                             server trusts, for the refused case
#   NETKIT_PROXY_URL     http://127.0.0.1:P   tinyproxy, no authentication (CONNECT allowed to the TLS ports)
#   NETKIT_AUTH_PROXY_URL http://127.0.0.1:P  tinyproxy with "BasicAuth user pass" (credentials not in the URL)
#   NETKIT_SOCKS_URL     socks5h://127.0.0.1:P scripts/socks5_proxy.py, no authentication; connects only to
#                                             the plain and TLS nginx ports; "*.socks.test" resolves inside it
#   NETKIT_AUTH_SOCKS_URL socks5h://127.0.0.1:P the same with RFC 1929 user/password "user" / "pass"
#   NETKIT_INTERCEPT_PROXY_URL http://127.0.0.1:P scripts/intercepting_proxy.py: takes CONNECT to any host and
#                                             terminates TLS itself with the mTLS servers' certificate (signed by
#                                             NETKIT_MTLS_CA), asks for a client certificate; GET /status counts them
#   NETKIT_MTLS_PIN      base64 SHA-256 of the SPKI of the mTLS servers' (and the intercepting proxy's) cert
#   NETKIT_WS_URL        ws://127.0.0.1:P     scripts/ws_echo_server.py (python3-websockets), plain
#   NETKIT_WSS_URL       wss://127.0.0.1:P    the same over TLS with nginx's certificate (NETKIT_TLS_CERT)
#   NETKIT_WS_FAULT_URL  ws://127.0.0.1:P     scripts/ws_fault_server.py: hostile WebSocket peers
#   NETKIT_REQUIRE_SERVERS=1
#   NETKIT_SERVERS_DIR   the temporary directory (logs, config, cert); removed by netkit_stop_servers
# The same exports are written to "$NETKIT_SERVERS_DIR/env.sh".

NETKIT_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NETKIT_SERVER_PIDS=()
NETKIT_NGINX_PIDFILE=""
# NETKIT_FORCE_VENV=1 ignores a system gunicorn/httpbin and uses (or creates) the pip venv.
: "${NETKIT_VENV:=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/netkit/venv}"

_netkit_log() { printf '[netkit] %s\n' "$*" >&2; }
_netkit_die() { printf '[netkit] ERROR: %s\n' "$*" >&2; return 1; }

_netkit_python() {
  if [ -n "${NETKIT_PYTHON:-}" ]; then printf '%s\n' "$NETKIT_PYTHON"
  elif [ -x /usr/bin/python3 ]; then printf '%s\n' /usr/bin/python3
  else command -v python3
  fi
}

_netkit_nginx_bin() {
  if command -v nginx >/dev/null 2>&1; then command -v nginx
  elif [ -x /usr/sbin/nginx ]; then printf '%s\n' /usr/sbin/nginx
  else return 1
  fi
}

_netkit_tinyproxy_bin() {
  if command -v tinyproxy >/dev/null 2>&1; then command -v tinyproxy
  elif [ -x /usr/bin/tinyproxy ]; then printf '%s\n' /usr/bin/tinyproxy
  else return 1
  fi
}

# The OpenSSL under libcurl (NetCurl's pin check inside the handshake includes its headers).
_netkit_have_libssl_dev() {
  pkg-config --exists openssl 2>/dev/null || return 1
  [ -f /usr/include/openssl/ssl.h ]
}

_netkit_have_zlib_dev() {  # CZlib: the curl WebSocket's permessage-deflate
  [ -f /usr/include/zlib.h ]
}

_netkit_have_libcurl_dev() {
  pkg-config --exists libcurl 2>/dev/null || return 1
  local h
  for h in /usr/include/curl/curl.h /usr/include/*/curl/curl.h; do
    [ -f "$h" ] && return 0
  done
  return 1
}

# Prints the gunicorn command able to serve httpbin, or fails.
_netkit_httpbin_gunicorn() {
  if [ "${NETKIT_FORCE_VENV:-0}" != "1" ] && command -v gunicorn >/dev/null 2>&1; then
    local g py
    g="$(command -v gunicorn)"
    # Debian's gunicorn runs /usr/bin/python3 (shebang); httpbin must import there.
    py="$(head -n1 "$g" 2>/dev/null | sed -n 's/^#! *//p' | awk '{print $1}')"
    if [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import httpbin' >/dev/null 2>&1; then
      printf '%s\n' "$g"; return 0
    fi
  fi
  if [ -x "$NETKIT_VENV/bin/gunicorn" ] && "$NETKIT_VENV/bin/python" -c 'import httpbin' >/dev/null 2>&1; then
    printf '%s\n' "$NETKIT_VENV/bin/gunicorn"; return 0
  fi
  return 1
}

_netkit_sudo() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else _netkit_die "need root (or sudo) to run: $*"
  fi
}

_NETKIT_APT_UPDATED=0
_netkit_apt_update_once() {
  [ "$_NETKIT_APT_UPDATED" -eq 1 ] && return 0
  _netkit_log "apt-get update"
  _netkit_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
  _NETKIT_APT_UPDATED=1
}
_netkit_apt_install() {
  command -v apt-get >/dev/null 2>&1 || { _netkit_die "apt-get not found; install manually: $*"; return 1; }
  _netkit_apt_update_once || return 1
  _netkit_log "apt-get install -y $*"
  _netkit_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" || return 1
}

_netkit_apt_has_candidate() {  # does apt know the package (after update)?
  local c
  c="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')"
  [ -n "$c" ] && [ "$c" != "(none)" ]
}

# netkit_install_deps [--bench]  (--bench also installs wrk and /usr/bin/time)
netkit_install_deps() {
  local bench=0 pkgs=()
  [ "${1:-}" = "--bench" ] && bench=1
  _netkit_have_libcurl_dev || pkgs+=(libcurl4-openssl-dev)
  _netkit_have_libssl_dev || pkgs+=(libssl-dev)
  _netkit_have_zlib_dev || pkgs+=(zlib1g-dev)
  command -v pkg-config >/dev/null 2>&1 || pkgs+=(pkg-config)
  command -v openssl >/dev/null 2>&1 || pkgs+=(openssl)
  command -v curl >/dev/null 2>&1 || pkgs+=(curl ca-certificates)
  _netkit_nginx_bin >/dev/null 2>&1 || pkgs+=(nginx)
  _netkit_tinyproxy_bin >/dev/null 2>&1 || pkgs+=(tinyproxy)
  [ -x /usr/bin/python3 ] || command -v python3 >/dev/null 2>&1 || pkgs+=(python3)
  # scripts/h2_fault_server.py needs the h2 package in the python the servers run with.
  local need_h2_pip=0
  if ! "$(_netkit_python)" -c 'import h2' >/dev/null 2>&1; then
    if [ "$(_netkit_python)" = /usr/bin/python3 ] || ! [ -x "$(_netkit_python)" ]; then pkgs+=(python3-h2)
    else need_h2_pip=1   # NETKIT_PYTHON is another python (a venv...): pip installs into it
    fi
  fi
  # scripts/ws_echo_server.py needs the websockets package (Debian's python3-websockets, or pip).
  local need_ws_pip=0
  if ! "$(_netkit_python)" -c 'import websockets' >/dev/null 2>&1; then
    if [ "$(_netkit_python)" = /usr/bin/python3 ] || ! [ -x "$(_netkit_python)" ]; then pkgs+=(python3-websockets)
    else need_ws_pip=1
    fi
  fi
  if [ "$bench" -eq 1 ]; then
    command -v wrk >/dev/null 2>&1 || pkgs+=(wrk)
    [ -x /usr/bin/time ] || pkgs+=(time)
  fi
  local need_httpbin=0
  _netkit_httpbin_gunicorn >/dev/null 2>&1 || need_httpbin=1

  if [ "${#pkgs[@]}" -eq 0 ] && [ "$need_httpbin" -eq 0 ] && [ "$need_h2_pip" -eq 0 ] && [ "$need_ws_pip" -eq 0 ]; then
    return 0
  fi
  if [ "${#pkgs[@]}" -gt 0 ]; then
    _netkit_apt_install "${pkgs[@]}" || { _netkit_die "could not install: ${pkgs[*]}"; return 1; }
    # pkg-config may have been installed just now; re-check libcurl headers.
    _netkit_have_libcurl_dev || { _netkit_die "libcurl development files still missing"; return 1; }
    _netkit_have_libssl_dev || { _netkit_die "OpenSSL development files (libssl-dev) still missing"; return 1; }
  fi
  if [ "$need_ws_pip" -eq 1 ]; then
    "$(_netkit_python)" -m pip install -q websockets || { _netkit_die "pip install websockets failed"; return 1; }
  fi
  if [ "$need_h2_pip" -eq 1 ]; then
    _netkit_log "h2: pip install into $(_netkit_python)"
    "$(_netkit_python)" -m pip install -q h2 || { _netkit_die "pip install h2 failed"; return 1; }
  fi
  "$(_netkit_python)" -c 'import h2' >/dev/null 2>&1 \
    || { _netkit_die "python module h2 still missing for $(_netkit_python)"; return 1; }
  if [ "$need_httpbin" -eq 1 ]; then
    local apt_ok=0
    if command -v apt-get >/dev/null 2>&1; then
      _netkit_apt_has_candidate python3-httpbin || _netkit_apt_update_once || true
      if [ "${NETKIT_FORCE_VENV:-0}" != "1" ] && _netkit_apt_has_candidate python3-httpbin && _netkit_apt_has_candidate gunicorn; then
        _netkit_apt_install python3-httpbin gunicorn && apt_ok=1
      fi
    fi
    if [ "$apt_ok" -eq 0 ] || ! _netkit_httpbin_gunicorn >/dev/null 2>&1; then
      _netkit_log "httpbin: falling back to pip in a venv at $NETKIT_VENV"
      local py; py="$(_netkit_python)"
      if ! "$py" -m venv --help >/dev/null 2>&1 || ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
        _netkit_apt_install python3-venv || true
      fi
      mkdir -p "$(dirname "$NETKIT_VENV")"
      "$py" -m venv "$NETKIT_VENV" || { _netkit_die "python3 -m venv failed"; return 1; }
      "$NETKIT_VENV/bin/pip" install -q httpbin gunicorn || { _netkit_die "pip install httpbin gunicorn failed"; return 1; }
    fi
    _netkit_httpbin_gunicorn >/dev/null 2>&1 || { _netkit_die "httpbin/gunicorn still not usable"; return 1; }
  fi
  return 0
}

# Prints N distinct free loopback ports (kernel-assigned), one per line.
_netkit_free_ports() {
  "$(_netkit_python)" - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    print(s.getsockname()[1])
for s in socks:
    s.close()
PY
}

# _netkit_wait_http URL TIMEOUT_S LABEL PID [curl options...]: until the URL answers 200; fails at
# once if the process PID has exited.
_netkit_wait_http() {
  local url="$1" timeout="$2" label="$3" pid="$4"; shift 4
  local deadline=$(( $(date +%s) + timeout )) code
  while :; do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$@" "$url" 2>/dev/null || true)"
    [ "$code" = "200" ] && return 0
    if ! _netkit_pid_alive "$pid"; then
      _netkit_die "$label exited before answering at $url"
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      _netkit_die "$label did not answer 200 at $url within ${timeout}s (last status: ${code:-none})"
      return 1
    fi
    sleep 0.05
  done
}

# Alive and not a zombie (kill -0 succeeds on an unreaped child).
_netkit_pid_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local st
  st="$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null || true)"
  [ "$st" != "Z" ]
}

# _netkit_start_py_server SCRIPT NAME VAR [ARGS...]: starts a python server (port 0, then ARGS)
# that prints "PORT <n>" first, records its PID, and stores the port in the variable named VAR (no
# subshell: the PID must stay a child of this shell).
_netkit_start_py_server() {
  local script="$1" name="$2" var="$3" dir="$NETKIT_SERVERS_DIR" pid port="" i
  shift 3
  "$(_netkit_python)" -u "$NETKIT_SCRIPTS_DIR/$script" 0 "$@" >"$dir/$name.out" 2>"$dir/$name.log" </dev/null &
  pid=$!
  NETKIT_SERVER_PIDS+=("$pid")
  for i in $(seq 1 400); do
    port="$(sed -n 's/^PORT \([0-9][0-9]*\)$/\1/p' "$dir/$name.out" 2>/dev/null | head -n1)"
    [ -n "$port" ] && break
    _netkit_pid_alive "$pid" || break
    sleep 0.05
  done
  if [ -z "$port" ]; then
    _netkit_die "$script did not report its port"; return 1
  fi
  printf -v "$var" '%s' "$port"
}

_netkit_write_webroot() {
  local root="$1"
  mkdir -p "$root"
  # 95 bytes: 94 bytes of JSON and a newline (the body size measured in SERVERS.md).
  printf '%s\n' '{"id":1,"name":"NetKit","tags":["a","b"],"active":true,"score":9.5,"note":"benchmark payload"}' >"$root/small.json"
  head -c 1048576 /dev/urandom >"$root/bytes-1m.bin"
}

# _netkit_make_mtls_certs DIR: a CA, a server certificate (127.0.0.1 / localhost) and a client
# certificate (CN=client) signed by it, the client identity as PKCS#12 (password "secret"), and a
# self-signed client certificate (CN=stranger) that nothing trusts. Keys are mode 600.
_netkit_make_mtls_certs() {
  local d="$1" log="$1/openssl.out"
  mkdir -p "$d" && chmod 755 "$d"
  {
    openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=NetKit Test CA" \
      -keyout "$d/ca.key" -out "$d/ca.pem" &&
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=127.0.0.1" -keyout "$d/server.key" -out "$d/server.csr" &&
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$d/server.ext" &&
    openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial -days 2 -sha256 \
      -extfile "$d/server.ext" -out "$d/server.pem" &&
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=client" -keyout "$d/client.key" -out "$d/client.csr" &&
    printf 'extendedKeyUsage=clientAuth\n' >"$d/client.ext" &&
    openssl x509 -req -in "$d/client.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial -days 2 -sha256 \
      -extfile "$d/client.ext" -out "$d/client.pem" &&
    openssl pkcs12 -export -in "$d/client.pem" -inkey "$d/client.key" -name client -passout pass:secret \
      -out "$d/client.p12" &&
    openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=stranger" \
      -keyout "$d/stranger.key" -out "$d/stranger.pem"
  } >"$log" 2>&1 || { _netkit_die "openssl (mutual TLS certificates) failed"; cat "$log" >&2; return 1; }
  chmod 644 "$d"/*.pem
  chmod 600 "$d"/*.key "$d/client.p12"
}

# _netkit_start_tinyproxy BIN NAME PORT AUTH_LINE CONNECT_PORT...: tinyproxy in the foreground on
# 127.0.0.1:PORT (clients from 127.0.0.1 only), CONNECT allowed to the given ports only; AUTH_LINE
# ("BasicAuth user pass" or "") goes into its config. Records the PID.
_netkit_start_tinyproxy() {
  local bin="$1" name="$2" port="$3" auth="$4" dir="$NETKIT_SERVERS_DIR" p
  shift 4
  {
    printf '# generated by scripts/servers.sh\n'
    printf 'Port %s\nListen 127.0.0.1\nAllow 127.0.0.1\nTimeout 30\nMaxClients 100\n' "$port"
    # tinyproxy adds "Via: 1.1 tinyproxy (...)" to forwarded responses: tests use it to see the route.
    printf 'LogLevel Warning\n'
    for p in "$@"; do printf 'ConnectPort %s\n' "$p"; done
    if [ -n "$auth" ]; then printf '%s\n' "$auth"; fi
  } >"$dir/$name.conf"
  "$bin" -d -c "$dir/$name.conf" </dev/null >>"$dir/$name.log" 2>&1 &
  NETKIT_SERVER_PIDS+=("$!")
}

netkit_start_servers() {
  if [ -n "${NETKIT_SERVERS_DIR:-}" ] && [ -d "${NETKIT_SERVERS_DIR:-}" ] && [ "${#NETKIT_SERVER_PIDS[@]}" -gt 0 ]; then
    _netkit_die "servers already started ($NETKIT_SERVERS_DIR); call netkit_stop_servers first"; return 1
  fi
  local t0 dir py nginx gunicorn tinyproxy
  t0="$(date +%s.%N)"
  py="$(_netkit_python)"
  nginx="$(_netkit_nginx_bin)" || { _netkit_die "nginx not found (run netkit_install_deps)"; return 1; }
  gunicorn="$(_netkit_httpbin_gunicorn)" || { _netkit_die "httpbin/gunicorn not found (run netkit_install_deps)"; return 1; }
  tinyproxy="$(_netkit_tinyproxy_bin)" || { _netkit_die "tinyproxy not found (run netkit_install_deps)"; return 1; }
  command -v curl >/dev/null 2>&1 || { _netkit_die "curl not found (run netkit_install_deps)"; return 1; }
  command -v openssl >/dev/null 2>&1 || { _netkit_die "openssl not found (run netkit_install_deps)"; return 1; }

  dir="$(mktemp -d "${TMPDIR:-/tmp}/netkit-servers.XXXXXX")" || return 1
  chmod 755 "$dir"   # nginx workers may run as another user and must reach the web root
  NETKIT_SERVERS_DIR="$dir"
  NETKIT_SERVER_PIDS=()
  export NETKIT_SERVERS_DIR

  if ! _netkit_start_servers_inner "$dir" "$py" "$nginx" "$gunicorn" "$tinyproxy"; then
    _netkit_log "startup failed; logs follow"
    local f
    for f in "$dir"/*.log "$dir"/nginx/error.log; do
      [ -s "$f" ] && { printf -- '--- %s\n' "$f" >&2; tail -n 30 "$f" >&2; }
    done
    netkit_stop_servers
    return 1
  fi
  local t1; t1="$(date +%s.%N)"
  _netkit_log "servers ready in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}') s"
}

_netkit_start_servers_inner() {
  local dir="$1" py="$2" nginx="$3" gunicorn="$4" tinyproxy="$5" ports p_httpbin p_tls p_plain p_fault p_sink
  local p_mtls p_strict p_proxy p_auth_proxy p_h2fault
  ports="$(_netkit_free_ports 6)" || return 1
  p_httpbin="$(sed -n 1p <<<"$ports")"; p_tls="$(sed -n 2p <<<"$ports")"; p_plain="$(sed -n 3p <<<"$ports")"
  p_mtls="$(sed -n 4p <<<"$ports")"; p_proxy="$(sed -n 5p <<<"$ports")"; p_auth_proxy="$(sed -n 6p <<<"$ports")"

  # --- a) httpbin ---------------------------------------------------------------------------
  local gargs=(--chdir "$dir" -b "127.0.0.1:$p_httpbin" -w 2 -k gthread --threads 16
               --keep-alive 30 --graceful-timeout 2 --log-level warning --error-logfile "$dir/httpbin.log")
  if "$gunicorn" --help 2>/dev/null | grep -q -- '--no-control-socket'; then
    gargs+=(--no-control-socket)
  fi
  "$gunicorn" "${gargs[@]}" httpbin:app </dev/null >>"$dir/httpbin.log" 2>&1 &
  local pid_httpbin=$!
  NETKIT_SERVER_PIDS+=("$pid_httpbin")

  # --- b) nginx: certificate, pin, web root, config --------------------------------------------
  local ngx="$dir/nginx" root="$dir/www"
  mkdir -p "$ngx/tmp"
  chmod 755 "$ngx"
  _netkit_write_webroot "$root"
  chmod -R a+rX "$root"
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$ngx/key.pem" -out "$ngx/cert.pem" >"$dir/openssl.out" 2>&1 \
    || { _netkit_die "openssl req failed"; cat "$dir/openssl.out" >&2; return 1; }
  chmod 644 "$ngx/cert.pem"
  local pin
  pin="$(openssl x509 -in "$ngx/cert.pem" -pubkey -noout | openssl pkey -pubin -outform der \
         | openssl dgst -sha256 -binary | base64)" || { _netkit_die "pin computation failed"; return 1; }
  _netkit_make_mtls_certs "$dir/mtls" || return 1
  local mt="$dir/mtls"
  # Strict mutual-TLS server (client certificate demanded in the handshake), before nginx, which
  # redirects to it.
  _netkit_start_py_server mtls_handshake_server.py mtls_strict p_strict \
    "$mt/server.pem" "$mt/server.key" "$mt/ca.pem" || return 1
  local pid_strict="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  local user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user root;"
  cat >"$ngx/nginx.conf" <<EOF
# generated by scripts/servers.sh
$user_line
worker_processes 1;
daemon off;
pid $ngx/nginx.pid;
error_log $ngx/error.log warn;
events { worker_connections 1024; }
http {
    types {
        application/json          json;
        application/octet-stream  bin;
        text/plain                txt;
        text/html                 html;
    }
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    client_max_body_size 0;
    client_body_temp_path $ngx/tmp/client_body;
    proxy_temp_path       $ngx/tmp/proxy;
    fastcgi_temp_path     $ngx/tmp/fastcgi;
    uwsgi_temp_path       $ngx/tmp/uwsgi;
    scgi_temp_path        $ngx/tmp/scgi;
    server {
        listen 127.0.0.1:$p_tls ssl http2;
        server_name 127.0.0.1 localhost;
        ssl_certificate     $ngx/cert.pem;
        ssl_certificate_key $ngx/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        root $root;
        location / { }
        # Security tests: an https page that redirects to plain http (must be refused by default).
        location = /to-http { return 302 http://127.0.0.1:$p_plain/small.json; }
        # Per-hop TLS tests: a page on "localhost" that redirects to the same server as 127.0.0.1.
        location = /to-ip { return 302 https://127.0.0.1:$p_tls/small.json; }
    }
    # Mutual TLS: nginx completes the handshake without a trusted client certificate and answers 400.
    server {
        listen 127.0.0.1:$p_mtls ssl http2;
        server_name 127.0.0.1 localhost;
        ssl_certificate     $mt/server.pem;
        ssl_certificate_key $mt/server.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_client_certificate $mt/ca.pem;
        ssl_verify_client on;
        root $root;
        location / { }
        location = /whoami { default_type text/plain; return 200 "\$ssl_client_s_dn"; }
        # Identity-leak tests: from "localhost" to the strict server as 127.0.0.1 (another host).
        location = /to-strict-ip { return 302 https://127.0.0.1:$p_strict/; }
    }
    server {
        listen 127.0.0.1:$p_plain;
        server_name 127.0.0.1 localhost;
        root $root;
        location / { }
    }
}
EOF
  NETKIT_NGINX_PIDFILE="$ngx/nginx.pid"
  "$nginx" -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" </dev/null >>"$ngx/error.log" 2>&1 &
  local pid_nginx=$!
  NETKIT_SERVER_PIDS+=("$pid_nginx")

  # --- c) fault server, d) upload sink --------------------------------------------------------
  _netkit_start_py_server fault_server.py fault p_fault || return 1
  local pid_fault="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  _netkit_start_py_server upload_sink.py sink p_sink || return 1
  local pid_sink="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  # HTTP/2 fault server, with nginx's certificate (so NETKIT_TLS_CERT / NETKIT_TLS_PIN fit it too).
  _netkit_start_py_server h2_fault_server.py h2fault p_h2fault "$ngx/cert.pem" "$ngx/key.pem" || return 1
  local pid_h2fault="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"

  # WebSocket echo servers (ws://, wss:// with nginx's certificate) and the hostile WebSocket peers.
  local p_ws p_wss p_wsfault
  _netkit_start_py_server ws_echo_server.py ws p_ws || return 1
  local pid_ws="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  _netkit_start_py_server ws_echo_server.py wss p_wss "$ngx/cert.pem" "$ngx/key.pem" || return 1
  local pid_wss="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  _netkit_start_py_server ws_fault_server.py wsfault p_wsfault || return 1
  local pid_wsfault="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"

  # --- e) tinyproxy: open, and with BasicAuth user/pass; CONNECT only to the TLS servers' ports --
  _netkit_start_tinyproxy "$tinyproxy" proxy "$p_proxy" "" "$p_tls" "$p_mtls" "$p_strict" "$p_h2fault" "$p_ws" "$p_wss" || return 1
  local pid_proxy="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  _netkit_start_tinyproxy "$tinyproxy" auth_proxy "$p_auth_proxy" "BasicAuth user pass" "$p_tls" "$p_mtls" "$p_strict" "$p_h2fault" || return 1
  local pid_auth_proxy="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"

  # --- f) SOCKS5 proxies: open, and with user/pass; only to the nginx ports ----------------------
  local p_socks p_auth_socks
  _netkit_start_py_server socks5_proxy.py socks p_socks --allow-port "$p_tls" --allow-port "$p_plain" || return 1
  local pid_socks="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  _netkit_start_py_server socks5_proxy.py auth_socks p_auth_socks --auth user:pass \
    --allow-port "$p_tls" --allow-port "$p_plain" || return 1
  local pid_auth_socks="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"

  # --- g) intercepting proxy: a man in the middle with a certificate the mTLS CA signed ---------
  local p_intercept mtls_pin
  _netkit_start_py_server intercepting_proxy.py intercept p_intercept "$mt/server.pem" "$mt/server.key" "$mt/ca.pem" || return 1
  local pid_intercept="${NETKIT_SERVER_PIDS[${#NETKIT_SERVER_PIDS[@]}-1]}"
  mtls_pin="$(openssl x509 -in "$mt/server.pem" -pubkey -noout | openssl pkey -pubin -outform der \
              | openssl dgst -sha256 -binary | base64)" || { _netkit_die "mTLS pin computation failed"; return 1; }

  export NETKIT_HTTPBIN_URL="http://127.0.0.1:$p_httpbin"
  export NETKIT_TLS_URL="https://127.0.0.1:$p_tls"
  export NETKIT_NGINX_URL="http://127.0.0.1:$p_plain"
  export NETKIT_TLS_CERT="$ngx/cert.pem"
  export NETKIT_TLS_PIN="$pin"
  export NETKIT_FAULT_URL="http://127.0.0.1:$p_fault"
  export NETKIT_H2_FAULT_URL="https://127.0.0.1:$p_h2fault"
  export NETKIT_SINK_URL="http://127.0.0.1:$p_sink"
  export NETKIT_WEBROOT="$root"
  export NETKIT_MTLS_URL="https://127.0.0.1:$p_mtls"
  export NETKIT_MTLS_STRICT_URL="https://127.0.0.1:$p_strict"
  export NETKIT_MTLS_CA="$mt/ca.pem"
  export NETKIT_CLIENT_CERT="$mt/client.pem"
  export NETKIT_CLIENT_KEY="$mt/client.key"
  export NETKIT_CLIENT_P12="$mt/client.p12"
  export NETKIT_OTHER_CLIENT_CERT="$mt/stranger.pem"
  export NETKIT_OTHER_CLIENT_KEY="$mt/stranger.key"
  export NETKIT_PROXY_URL="http://127.0.0.1:$p_proxy"
  export NETKIT_AUTH_PROXY_URL="http://127.0.0.1:$p_auth_proxy"
  export NETKIT_SOCKS_URL="socks5h://127.0.0.1:$p_socks"
  export NETKIT_AUTH_SOCKS_URL="socks5h://127.0.0.1:$p_auth_socks"
  export NETKIT_INTERCEPT_PROXY_URL="http://127.0.0.1:$p_intercept"
  export NETKIT_MTLS_PIN="$mtls_pin"
  export NETKIT_WS_URL="ws://127.0.0.1:$p_ws"
  export NETKIT_WSS_URL="wss://127.0.0.1:$p_wss"
  export NETKIT_WS_FAULT_URL="ws://127.0.0.1:$p_wsfault"
  export NETKIT_REQUIRE_SERVERS=1

  # --- readiness --------------------------------------------------------------------------------
  _netkit_wait_http "$NETKIT_HTTPBIN_URL/get" 20 httpbin "$pid_httpbin" || return 1
  _netkit_wait_http "$NETKIT_TLS_URL/small.json" 20 "nginx (TLS)" "$pid_nginx" --cacert "$NETKIT_TLS_CERT" || return 1
  _netkit_wait_http "$NETKIT_NGINX_URL/small.json" 20 "nginx (plain)" "$pid_nginx" || return 1
  _netkit_wait_http "$NETKIT_FAULT_URL/healthz" 20 "fault server" "$pid_fault" || return 1
  _netkit_wait_http "$NETKIT_H2_FAULT_URL/ok" 20 "HTTP/2 fault server" "$pid_h2fault" -k --http2 || return 1
  _netkit_wait_http "$NETKIT_SINK_URL/healthz" 20 "upload sink" "$pid_sink" || return 1
  _netkit_wait_http "http://127.0.0.1:$p_ws/healthz" 20 "WebSocket echo server" "$pid_ws" || return 1
  _netkit_wait_http "https://127.0.0.1:$p_wss/healthz" 20 "WebSocket echo server (TLS)" "$pid_wss" --cacert "$NETKIT_TLS_CERT" || return 1
  _netkit_wait_http "http://127.0.0.1:$p_wsfault/healthz" 20 "WebSocket fault server" "$pid_wsfault" || return 1
  _netkit_wait_http "$NETKIT_MTLS_URL/whoami" 20 "nginx (mutual TLS)" "$pid_nginx" \
    --cacert "$NETKIT_MTLS_CA" --cert "$NETKIT_CLIENT_CERT" --key "$NETKIT_CLIENT_KEY" || return 1
  _netkit_wait_http "$NETKIT_MTLS_STRICT_URL/" 20 "strict mutual-TLS server" "$pid_strict" \
    --cacert "$NETKIT_MTLS_CA" --cert "$NETKIT_CLIENT_CERT" --key "$NETKIT_CLIENT_KEY" || return 1
  _netkit_wait_http "$NETKIT_NGINX_URL/small.json" 20 tinyproxy "$pid_proxy" --proxy "$NETKIT_PROXY_URL" || return 1
  _netkit_wait_http "$NETKIT_NGINX_URL/small.json" 20 "tinyproxy (BasicAuth)" "$pid_auth_proxy" \
    --proxy "$NETKIT_AUTH_PROXY_URL" --proxy-user user:pass || return 1
  _netkit_wait_http "${NETKIT_NGINX_URL/127.0.0.1/ready.socks.test}/small.json" 20 "SOCKS5 proxy" "$pid_socks" \
    --proxy "$NETKIT_SOCKS_URL" || return 1
  _netkit_wait_http "${NETKIT_NGINX_URL/127.0.0.1/ready.socks.test}/small.json" 20 "SOCKS5 proxy (user/password)" \
    "$pid_auth_socks" --proxy "socks5h://user:pass@127.0.0.1:$p_auth_socks" || return 1
  _netkit_wait_http "$NETKIT_INTERCEPT_PROXY_URL/status" 20 "intercepting proxy" "$pid_intercept" || return 1

  local v
  {
    for v in NETKIT_HTTPBIN_URL NETKIT_TLS_URL NETKIT_NGINX_URL NETKIT_TLS_CERT NETKIT_TLS_PIN \
             NETKIT_FAULT_URL NETKIT_H2_FAULT_URL NETKIT_SINK_URL NETKIT_WEBROOT NETKIT_MTLS_URL \
             NETKIT_MTLS_STRICT_URL NETKIT_MTLS_CA NETKIT_CLIENT_CERT NETKIT_CLIENT_KEY NETKIT_CLIENT_P12 \
             NETKIT_OTHER_CLIENT_CERT NETKIT_OTHER_CLIENT_KEY NETKIT_PROXY_URL NETKIT_AUTH_PROXY_URL NETKIT_SOCKS_URL NETKIT_AUTH_SOCKS_URL \
             NETKIT_INTERCEPT_PROXY_URL NETKIT_MTLS_PIN NETKIT_WS_URL NETKIT_WSS_URL NETKIT_WS_FAULT_URL \
             NETKIT_REQUIRE_SERVERS NETKIT_SERVERS_DIR; do
      printf 'export %s=%q\n' "$v" "${!v}"
    done
  } >"$dir/env.sh"
}

netkit_print_servers() {
  local v
  for v in NETKIT_HTTPBIN_URL NETKIT_TLS_URL NETKIT_NGINX_URL NETKIT_FAULT_URL NETKIT_H2_FAULT_URL \
           NETKIT_SINK_URL NETKIT_TLS_CERT NETKIT_TLS_PIN NETKIT_WEBROOT NETKIT_MTLS_URL NETKIT_MTLS_STRICT_URL \
           NETKIT_MTLS_CA NETKIT_CLIENT_CERT NETKIT_CLIENT_KEY NETKIT_CLIENT_P12 NETKIT_OTHER_CLIENT_CERT \
           NETKIT_OTHER_CLIENT_KEY NETKIT_PROXY_URL NETKIT_AUTH_PROXY_URL NETKIT_SOCKS_URL NETKIT_AUTH_SOCKS_URL \
           NETKIT_INTERCEPT_PROXY_URL NETKIT_MTLS_PIN NETKIT_WS_URL NETKIT_WSS_URL NETKIT_WS_FAULT_URL; do
    printf '  %-24s %s\n' "$v" "${!v:-}"
  done
}

# Stops what netkit_start_servers started (only those PIDs), removes the temp dir. Idempotent.
netkit_stop_servers() {
  local pid pids=() p deadline
  for pid in "${NETKIT_SERVER_PIDS[@]+"${NETKIT_SERVER_PIDS[@]}"}"; do pids+=("$pid"); done
  # nginx master from its pid file (same process as the one started with daemon off).
  if [ -n "${NETKIT_NGINX_PIDFILE:-}" ] && [ -s "$NETKIT_NGINX_PIDFILE" ]; then
    p="$(cat "$NETKIT_NGINX_PIDFILE" 2>/dev/null || true)"
    case " ${pids[*]-} " in *" $p "*) ;; *) [ -n "$p" ] && pids+=("$p") ;; esac
  fi
  # Children of the started processes (gunicorn workers, nginx worker), so that nothing survives a
  # SIGKILL fallback of their parent.
  local kids=()
  if command -v pgrep >/dev/null 2>&1; then
    for pid in "${pids[@]+"${pids[@]}"}"; do
      while read -r p; do [ -n "$p" ] && kids+=("$p"); done < <(pgrep -P "$pid" 2>/dev/null || true)
    done
  fi
  for pid in "${pids[@]+"${pids[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; done
  deadline=$(( $(date +%s) + 5 ))
  for pid in "${pids[@]+"${pids[@]}"}" "${kids[@]+"${kids[@]}"}"; do
    while _netkit_pid_alive "$pid" && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.05; done
  done
  for pid in "${pids[@]+"${pids[@]}"}" "${kids[@]+"${kids[@]}"}"; do
    _netkit_pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  done
  # Reap our own children (no-op for others) so none lingers as a zombie.
  for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  NETKIT_SERVER_PIDS=()
  NETKIT_NGINX_PIDFILE=""
  if [ -n "${NETKIT_SERVERS_DIR:-}" ] && [ -d "$NETKIT_SERVERS_DIR" ]; then
    case "$NETKIT_SERVERS_DIR" in
      */netkit-servers.*) rm -rf -- "$NETKIT_SERVERS_DIR" ;;
    esac
  fi
  unset NETKIT_SERVERS_DIR NETKIT_HTTPBIN_URL NETKIT_TLS_URL NETKIT_NGINX_URL NETKIT_TLS_CERT \
        NETKIT_TLS_PIN NETKIT_FAULT_URL NETKIT_H2_FAULT_URL NETKIT_SINK_URL NETKIT_WEBROOT \
        NETKIT_REQUIRE_SERVERS \
        NETKIT_MTLS_URL NETKIT_MTLS_STRICT_URL NETKIT_MTLS_CA NETKIT_CLIENT_CERT NETKIT_CLIENT_KEY \
        NETKIT_CLIENT_P12 NETKIT_OTHER_CLIENT_CERT NETKIT_OTHER_CLIENT_KEY NETKIT_PROXY_URL NETKIT_AUTH_PROXY_URL \
        NETKIT_INTERCEPT_PROXY_URL NETKIT_MTLS_PIN NETKIT_WS_URL NETKIT_WSS_URL NETKIT_WS_FAULT_URL
  return 0
}
