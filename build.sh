#!/usr/bin/env bash
# The repository's one entry point for set-up and tests (the .NET repositories' build.sh convention):
#   ./build.sh test [dotnet test options]   provision what the tests start, then run every test (what CI runs)
#   ./build.sh provision                    only provision
# Provisioning installs only what is missing: Debian's packages through apt-get (as root, or through sudo), and the
# pinned dotnet-trace and dotnet-counters of .config/dotnet-tools.json through `dotnet tool restore`.
set -euo pipefail
cd "$(dirname "$0")"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

# The programs the tests and demos start; each is also the name of the Debian package that provides it.
#   prometheus: the fleet test scrapes two sample services with a real one, on its own loopback port
#   wrk:        the web demo's and the fleet benchmark's bounded loopback load (curl stands in without it)
#   chromium:   the HTML report's tests open it in a real headless browser (through Playwright's driver, no download)
#   npm:        the speedscope test fetches speedscope's own file-format schema with `npm pack`
debian_packages=(prometheus wrk chromium npm)

provision() {
  local missing=() package
  for package in "${debian_packages[@]}"; do
    command -v "$package" >/dev/null || missing+=("$package")
  done
  if ((${#missing[@]})); then
    echo "==> installing ${missing[*]} (Debian packages the tests start)"
    local sudo=()
    ((EUID == 0)) || sudo=(sudo)
    command -v apt-get >/dev/null || { echo "build.sh: ${missing[*]} missing and no apt-get: install them with your package manager" >&2; exit 1; }
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  echo "==> dotnet tool restore (the pinned dotnet-trace and dotnet-counters)"
  dotnet tool restore >/dev/null
}

case "${1:-}" in
  provision) provision ;;
  test)
    shift
    provision
    # A test that hangs (a runtime event session that never answers) is stopped after 15 minutes and named, instead of
    # holding the run until CI's own limit; the slowest test takes a few minutes on a busy 2-core machine.
    echo "==> dotnet test AsyncCost.sln -c Release --blame-hang-timeout 15m --blame-hang-dump-type none $*"
    dotnet test AsyncCost.sln -c Release --blame-hang-timeout 15m --blame-hang-dump-type none "$@"
    ;;
  *)
    echo "usage: ./build.sh test [dotnet test options] | ./build.sh provision" >&2
    exit 2
    ;;
esac
