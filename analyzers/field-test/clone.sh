#!/usr/bin/env bash
# Clones the public repositories of the field test at the commits its figures are for, into DEST/<repo>, and applies
# the edits of a clone the builds need (TodoApi and RabbitMQ pin an older SDK in global.json: raised to the installed
# 10.0 band).
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
mediatr jbogard/MediatR 8a64581
restsharp restsharp/RestSharp 9b2fe0a05
rabbitmq rabbitmq/rabbitmq-dotnet-client 9579b3d5a
sshnet sshnet/SSH.NET 3e12c9631
mqttnet dotnet/MQTTnet 14463d1ef
TechnitiumLibrary TechnitiumSoftware/TechnitiumLibrary 63efb5f
dnsserver TechnitiumSoftware/DnsServer aa9044d4d
podcasts microsoft/dotnet-podcasts 5ee8be2
jellyfin jellyfin/jellyfin c3ed1407c
gcm git-ecosystem/git-credential-manager 2fe99b86
sonarr Sonarr/Sonarr 49df353fa
cliwrap Tyrrrz/CliWrap 98ae959
fluentftp robinrodricks/FluentFTP e6d1f4e1
garnet microsoft/garnet e508a4162
quartz quartznet/quartznet d97e7822f
coyote microsoft/coyote f2c135d20
nats nats-io/nats.net 0033cfd7a
netdaemon net-daemon/netdaemon e1682fd1
eshop dotnet/eShop 5624ad5
credprovider microsoft/artifacts-credprovider bca6c32
cake cake-build/cake cc71d61e"
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
# RabbitMQ pins SDK 8.0.100 with rollForward latestFeature: the installed 10.0 band (its targets are unchanged).
sed -i 's/"version": "8\.0\.100"/"version": "10.0.100"/' "$dest/rabbitmq/global.json"
# DnsServer references TechnitiumLibrary's built assemblies at ../TechnitiumLibrary/bin (hence that clone's name);
# projects.txt builds the library first.
# dotnet-podcasts' services target net7.0, whose reference pack the package feed does not serve: net8.0 (no API of
# theirs differs).
for p in Podcast.Infrastructure Podcast.Updater.Worker Podcast.Ingestion.Worker; do
  sed -i 's|<TargetFramework>net7\.0</TargetFramework>|<TargetFramework>net8.0</TargetFramework>|' "$dest/podcasts/src/Services/Podcasts/$p/$p.csproj"
done
# SSH.NET also targets net6.0 and net7.0, whose reference and trimming-analyzer packs the feed does not serve: the
# other four targets are kept (the field build compiles net8.0).
sed -i 's|<TargetFrameworks>net462;netstandard2.0;netstandard2.1;net6.0;net7.0;net8.0</TargetFrameworks>|<TargetFrameworks>net462;netstandard2.0;netstandard2.1;net8.0</TargetFrameworks>|' \
  "$dest/sshnet/src/Renci.SshNet/Renci.SshNet.csproj"
# Coyote pins SDK 8.0.404 exactly: any installed 10.0 band (its targets are unchanged).
printf '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" } }\n' > "$dest/coyote/global.json"
# Sonarr pins SDK 10.0.301 exactly: any installed 10.0 band.
printf '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" } }\n' > "$dest/sonarr/global.json"
# Sonarr.Common pins Sentry 5.16.3, which the feed does not serve; 6.x renamed one enum member it uses.
sed -i 's/BreadcrumbLevel\.Critical/BreadcrumbLevel.Fatal/' "$dest/sonarr/src/NzbDrone.Common/Instrumentation/Sentry/SentryTarget.cs"
# Cake pins Spectre.Console.Cli 0.53.0, which the feed does not serve; 0.55 made Command<T>.Execute protected.
sed -i 's/public override int Execute(CommandContext context, DefaultCommandSettings settings/protected override int Execute(CommandContext context, DefaultCommandSettings settings/' \
  "$dest/cake/src/Cake/Commands/DefaultCommand.cs"
