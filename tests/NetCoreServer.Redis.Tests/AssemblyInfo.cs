using NUnit.Framework;

// Each fixture starts its own redis-server on its own port, so fixtures run side by side.
[assembly: Parallelizable(ParallelScope.Fixtures)]
[assembly: LevelOfParallelism(2)]
