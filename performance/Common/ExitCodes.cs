namespace NetCoreServer.Performance.Common;

/// <summary>Process exit codes shared by every benchmark program, so scripts can tell a bad command line from a failed run.</summary>
public static class ExitCodes
{
    /// <summary>The program ran to the end (a benchmark may still report errors in its result).</summary>
    public const int Success = 0;

    /// <summary>The run could not be done: the server did not start, no client connected, a wait timed out.</summary>
    public const int Failure = 1;

    /// <summary>The command line was wrong: an unknown option, a value out of range, an unknown or unimplemented protocol.</summary>
    public const int Usage = 2;
}
