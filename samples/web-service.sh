# Sourced by the scripts that run samples/WebShop as a service (samples/run-web-demo.sh, the recorded-trace script):
# start_web_service DLL LOG starts `dotnet DLL` on a free loopback port (Kestrel binds port 0 and logs the one it took;
# the lifetime log stays on, the request logs do not) and sets $service (its pid) and $url once it listens.
start_web_service() {
  local dll="$1" log="$2"
  env Logging__LogLevel__Default=Warning 'Logging__LogLevel__Microsoft.Hosting.Lifetime=Information' \
    dotnet "$dll" --urls http://127.0.0.1:0 >"$log" 2>&1 &
  service=$!
  url=""
  for _ in $(seq 150); do
    url=$(grep -m1 -oE 'http://127\.0\.0\.1:[0-9]+' "$log" || true)
    [[ -n "$url" ]] && return 0
    kill -0 "$service" 2>/dev/null || break
    sleep 0.2
  done
  cat "$log" >&2
  echo "$dll did not start listening" >&2
  return 1
}
