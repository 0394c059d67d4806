#!/usr/bin/env bash
# Clones the public repositories of the field test at the commits its figures are for, into DEST/<repo>, and applies
# the one edit of a clone the builds need (TodoApi pins SDK 9.0.100 in global.json: raised to the installed 10.0 band).
# usage: clone.sh DEST [URL-TEMPLATE]
#   URL-TEMPLATE: where to clone from, {owner} and {name} replaced; default https://github.com/{owner}/{name}.git
#   (a local mirror of bare repositories works too, e.g. '<mirror-root>/{owner}+{name}/repo').
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
default_template='https://github.com/{owner}/{name}.git'
template=${2:-$default_template}
# short name, owner/name, commit
repos="redis StackExchange/StackExchange.Redis 90bbf1fc
npgsql npgsql/npgsql 3cb5804b7
polly App-vNext/Polly 173d6d1d
todoapi davidfowl/TodoApi a519c10
mediatr jbogard/MediatR 8a64581"
while read -r short slug commit; do
  url=${template//\{owner\}/${slug%/*}}; url=${url//\{name\}/${slug#*/}}
  if [ ! -d "$dest/$short/.git" ]; then
    git clone -q --no-checkout "$url" "$dest/$short"
  fi
  # A partial mirror may lack some large binaries (test fixtures): leave those out of the checkout.
  missing=$(git -C "$dest/$short" ls-tree -r "$commit" | awk '$2 == "blob" { print $3 }' \
    | git -C "$dest/$short" cat-file --batch-check='%(objectname) %(objecttype)' 2>/dev/null | awk '$2 == "missing" { print $1 }')
  if [ -n "$missing" ]; then
    git -C "$dest/$short" config core.sparseCheckout true
    { echo '/*'; git -C "$dest/$short" ls-tree -r "$commit" | grep -F "$missing" | cut -f2 | sed 's|^|!/|'; } > "$dest/$short/.git/info/sparse-checkout"
  fi
  git -C "$dest/$short" checkout -q --detach "$commit"
  echo "$short: $(git -C "$dest/$short" rev-parse --short HEAD) from $url"
done <<<"$repos"
# TodoApi: the SDK band this repository builds with (the app and its tests keep their net9.0 target).
sed -i 's/"version": "9\.0\.100"/"version": "10.0.100"/' "$dest/todoapi/global.json"
