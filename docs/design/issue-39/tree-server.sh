#!/usr/bin/env bash
# tree-server.sh NAME TREE [SED]: NetCoreServer's TcpEchoServer Program.cs on the library of TREE (a worktree of this
# repository), built in /tmp/ncs-compare/var-NAME next to what performance/ncs-compare.sh built; prints the DLL. SED,
# a sed expression, edits a copy of Program.cs first (it must change something).
set -e
N=$1 T=$(cd "$2" && pwd) D=/tmp/ncs-compare/var-$1
mkdir -p $D
PROJECT=/tmp/ncs-compare/ours-TcpEchoServer/TcpEchoServer.csproj
EDIT=()
if [[ -n ${3:-} ]]; then
  SRC=$(grep -o '/[^"]*Program.cs' $PROJECT)
  sed "$3" "$SRC" > $D/Program.cs
  ! cmp -s "$SRC" $D/Program.cs || { echo "tree-server.sh: '$3' changes nothing in $SRC" >&2; exit 1; }
  EDIT=(-e "s#<Compile Include=\"[^\"]*Program.cs\"#<Compile Include=\"$D/Program.cs\"#")
fi
sed -e "s#<ProjectReference Include=\"[^\"]*\"#<ProjectReference Include=\"$T/source/NetCoreServer/NetCoreServer.csproj\"#" \
  "${EDIT[@]}" $PROJECT > $D/TcpEchoServer.csproj
cd $D && dotnet build -c Release -nologo -clp:ErrorsOnly -v q > /dev/null && echo $D/bin/Release/net10.0/TcpEchoServer.dll
