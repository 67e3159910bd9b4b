@echo off
rem Full build on Windows: Release build of the solution, every test project, then the NuGet packages in artifacts\:
rem CoreSessionServer (.nupkg and .snupkg) and CoreSessionServer.Templates.
setlocal
cd /d "%~dp0.."

dotnet build NetCoreServer.sln -c Release -nologo
if errorlevel 1 exit /b 1

rem Every test project, found as build\test.sh finds them: tests\*\*.csproj marked IsTestProject (the shared
rem support library is not). All of them run; the script fails afterwards if any failed.
set failed=0
for /d %%d in (tests\*) do (
    for %%p in ("%%d\*.csproj") do (
        findstr /l /c:"<IsTestProject>true</IsTestProject>" "%%~p" >nul
        if not errorlevel 1 (
            dotnet test "%%~p" -c Release --no-build -nologo
            if errorlevel 1 set failed=1
        )
    )
)
if %failed%==1 exit /b 1

dotnet pack source\NetCoreServer -c Release -nologo -o artifacts
if errorlevel 1 exit /b 1
dotnet pack source\NetCoreServer.Redis -c Release -nologo -o artifacts
if errorlevel 1 exit /b 1
dotnet pack source\NetCoreServer.Hosting -c Release -nologo -o artifacts
if errorlevel 1 exit /b 1
dotnet pack templates -c Release -nologo -o artifacts
if errorlevel 1 exit /b 1
