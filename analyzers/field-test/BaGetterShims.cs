// Field test stand-in (bagetter only): the Aliyun, AWS, Azure and Tencent storage projects need packages the NuGet
// mirror does not serve (or serves only at conflicting versions), so they are left out of the build and the host's
// four registration calls resolve to these no-ops. None of this is BaGetter's code; it is never judged.
using BaGetter.Core;

namespace BaGetter
{
    internal static class FieldStorageShims
    {
        public static BaGetterApplication AddAliyunOssStorage(this BaGetterApplication app) => app;
        public static BaGetterApplication AddAwsS3Storage(this BaGetterApplication app) => app;
        public static BaGetterApplication AddAzureTableDatabase(this BaGetterApplication app) => app;
        public static BaGetterApplication AddAzureBlobStorage(this BaGetterApplication app) => app;
    }
}

namespace BaGetter.Tencent
{
    internal static class FieldStorageShims
    {
        public static BaGetterApplication AddTencentOssStorage(this BaGetterApplication app) => app;
    }
}

namespace BaGetter
{
    // McMaster.Extensions.CommandLineUtils 4.x is not served; the served 2.3.0 lacks the two async members the host's
    // Program.cs calls. These map them onto 2.3.0's OnExecute(Func<Task<int>>) and Execute.
    internal static class FieldCommandLineShims
    {
        public static void OnExecuteAsync(this McMaster.Extensions.CommandLineUtils.CommandLineApplication app,
            System.Func<System.Threading.CancellationToken, System.Threading.Tasks.Task> run)
            => app.OnExecute(async () => { await run(System.Threading.CancellationToken.None); return 0; });

        public static System.Threading.Tasks.Task<int> ExecuteAsync(this McMaster.Extensions.CommandLineUtils.CommandLineApplication app, string[] args)
            => System.Threading.Tasks.Task.FromResult(app.Execute(args));
    }
}
