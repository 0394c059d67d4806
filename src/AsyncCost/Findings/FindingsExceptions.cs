namespace AsyncCost.Findings;

/// <summary>The SARIF file named for the join does not exist.</summary>
public sealed class FindingsFileNotFoundException(string path)
    : AsyncCostException($"Analyzer findings file not found: {path}")
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.FindingsFileNotFound;
}

/// <summary>The SARIF file is not JSON, or not a SARIF log (1.0 or 2.1) with runs and results.</summary>
public sealed class FindingsFileInvalidException(string message, Exception? innerException = null)
    : AsyncCostException(message, innerException)
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.FindingsFileInvalid;
}
