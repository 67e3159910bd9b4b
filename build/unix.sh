#!/usr/bin/env bash
# Full build on Linux and macOS: Release build of the solution, the test suite, then the NuGet package in artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

dotnet build NetCoreServer.sln -c Release -nologo

if [ -f build/test.sh ]; then
    bash build/test.sh
else
    dotnet test tests/NetCoreServer.Tests -c Release --no-build -nologo
fi

dotnet pack source/NetCoreServer -c Release -nologo -o artifacts
