@echo off
rem Full build on Windows: Release build of the solution, the test suite, then the NuGet package in artifacts\.
setlocal
cd /d "%~dp0.."

dotnet build NetCoreServer.sln -c Release -nologo
if errorlevel 1 exit /b 1

dotnet test tests\NetCoreServer.Tests -c Release --no-build -nologo
if errorlevel 1 exit /b 1

dotnet pack source\NetCoreServer -c Release -nologo -o artifacts
if errorlevel 1 exit /b 1
