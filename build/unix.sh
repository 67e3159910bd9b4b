#!/usr/bin/env bash
# Full build on Linux and macOS: Release build of the solution, every test project (build/test.sh), then the NuGet
# packages in artifacts/: CoreSessionServer, CoreSessionServer.Redis and CoreSessionServer.Hosting (.nupkg and .snupkg), CoreSessionServer.Templates.
set -euo pipefail
cd "$(dirname "$0")/.."

dotnet build NetCoreServer.sln -c Release -nologo

# Every test project (tests/*/*.csproj marked IsTestProject) and the example process tests.
bash build/test.sh

dotnet pack source/NetCoreServer -c Release -nologo -o artifacts
dotnet pack source/NetCoreServer.Redis -c Release -nologo -o artifacts
dotnet pack source/NetCoreServer.Hosting -c Release -nologo -o artifacts
dotnet pack templates -c Release -nologo -o artifacts
