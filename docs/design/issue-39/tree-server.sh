#!/usr/bin/env bash
# tree-server.sh NAME TREE: NetCoreServer's TcpEchoServer Program.cs on the library of TREE (a worktree of this
# repository), built in /tmp/ncs-compare/var-NAME next to what performance/ncs-compare.sh built; prints the DLL.
set -e
N=$1 T=$(cd "$2" && pwd) D=/tmp/ncs-compare/var-$1
mkdir -p $D
sed "s#<ProjectReference Include=\"[^\"]*\"#<ProjectReference Include=\"$T/source/NetCoreServer/NetCoreServer.csproj\"#" \
  /tmp/ncs-compare/ours-TcpEchoServer/TcpEchoServer.csproj > $D/TcpEchoServer.csproj
cd $D && dotnet build -c Release -nologo -clp:ErrorsOnly -v q > /dev/null && echo $D/bin/Release/net10.0/TcpEchoServer.dll
