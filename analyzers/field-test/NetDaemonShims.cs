// Field-test stand-in for a package the NuGet mirror does not serve, used by NetDaemon.Extensions.Scheduling
// (netdaemon only): the members it uses, with the same shapes, so the project compiles. Not async; findings here are
// not counted.
namespace Innovative.SolarCalculator
{
    public class SolarTimes
    {
        public SolarTimes(System.DateTime forDate, decimal latitude, decimal longitude) => ForDate = forDate;

        public System.DateTime ForDate { get; set; }

        public System.DateTime Sunset => ForDate;

        public System.DateTime Sunrise => ForDate;

        public System.DateTime DuskCivil => ForDate;

        public System.DateTime DawnCivil => ForDate;
    }
}
