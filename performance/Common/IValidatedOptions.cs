namespace NetCoreServer.Performance.Common;

/// <summary>A program's parsed command line, which checks its own values once parsing succeeded.</summary>
public interface IValidatedOptions
{
    /// <summary>Checks the values after parsing; returns a message for the first bad one, or null when all are valid.</summary>
    string? Validate();
}
