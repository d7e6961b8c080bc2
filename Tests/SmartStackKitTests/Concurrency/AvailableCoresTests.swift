import Foundation
import Testing
@testable import SmartStackBase

/// The cores a process may use (`AvailableCores`): the machine's active processors, fewer
/// under an affinity mask or in a Slurm job given fewer CPUs.
@Suite("The cores a process may use: its affinity mask, its cgroup's CPU quota and a Slurm job's CPUs")
struct AvailableCoresTests {
  static let status = "Name:\tsmartstack\nThreads:\t1\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"

  /// `AvailableCores.current` of these inputs.
  func cores(
    status: String? = nil, quota: Int? = nil, environment: [String: String] = [:], active: Int
  ) -> Int {
    AvailableCores.current(status: status, quota: quota, environment: environment, activeProcessors: active)
  }

  @Test func cpuListsAreCounted() {
    #expect(AvailableCores.countCPUs("1") == 1)
    #expect(AvailableCores.countCPUs("0-1") == 2)
    #expect(AvailableCores.countCPUs("0-3,6,8-9\n") == 7)
    #expect(AvailableCores.countCPUs("3-1") == nil)
    #expect(AvailableCores.countCPUs("") == nil)
    #expect(AvailableCores.countCPUs("a-b") == nil)
  }

  @Test func theAffinityMaskBoundsTheMachinesProcessors() {
    #expect(AvailableCores.allowedCPUs(Self.status) == 2)
    #expect(cores(status: Self.status, active: 64) == 2)
    #expect(cores(status: "Cpus_allowed_list:\t5\n", active: 64) == 1)
    // A mask wider than the processors Foundation counts does not add any.
    #expect(cores(status: "Cpus_allowed_list:\t0-127\n", active: 8) == 8)
  }

  @Test func aSlurmJobsCPUsBoundThemToo() {
    let slurm = ["SLURM_CPUS_ON_NODE": "4"]
    #expect(cores(environment: slurm, active: 64) == 4)
    #expect(cores(status: Self.status, environment: slurm, active: 64) == 2)
  }

  /// A file system of `files` (path: text) for `quotaCPUs`' reads.
  func reader(_ files: [String: String]) -> (String) -> String? { { files[$0] } }

  @Test func aCgroupV2QuotaIsItsCPUsRoundedUpTheTightestOverItsParents() {
    let mounts = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
    let cgroup = "0::/kubepods/pod1/box\n"
    func cpus(_ files: [String: String]) -> Int? {
      AvailableCores.quotaCPUs(cgroupFile: cgroup, mountInfo: mounts, read: reader(files))
    }
    #expect(cpus(["/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "200000 100000\n"]) == 2)
    #expect(cpus(["/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "150000 100000\n"]) == 2)
    #expect(cpus(["/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "50000 100000\n"]) == 1)
    #expect(cpus(["/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "max 100000\n"]) == nil)
    // A parent's quota binds its children.
    #expect(
      cpus([
        "/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "max 100000\n",
        "/sys/fs/cgroup/kubepods/pod1/cpu.max": "300000 100000\n",
        "/sys/fs/cgroup/kubepods/cpu.max": "800000 100000\n",
      ]) == 3)
    #expect(cores(quota: 3, active: 64) == 3)
    #expect(cores(quota: 3, active: 2) == 2)
  }

  /// The walk reads each limit file once: the check that the cgroup's own folder exists
  /// reads its limit file, and that text is the one its limit is read from.
  @Test func eachLimitFileIsReadOnce() {
    let mounts = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
    let files = [
      "/sys/fs/cgroup/kubepods/pod1/box/cpu.max": "max 100000\n",
      "/sys/fs/cgroup/kubepods/pod1/cpu.max": "300000 100000\n",
      "/sys/fs/cgroup/kubepods/cpu.max": "800000 100000\n",
    ]
    // A container shown the host's path: `/outer/kubepods/pod1/box` has no folder, so the
    // walk drops `outer` and finds `kubepods/pod1/box`.
    for cgroup in ["0::/kubepods/pod1/box\n", "0::/outer/kubepods/pod1/box\n"] {
      var reads: [String] = []
      let cpus = AvailableCores.quotaCPUs(cgroupFile: cgroup, mountInfo: mounts) { path in
        reads.append(path)
        return files[path]
      }
      #expect(cpus == 3, "\(cgroup)")
      #expect(Set(reads).count == reads.count, "read more than once: \(reads)")
      #expect(Set(files.keys).isSubset(of: Set(reads)), "\(reads)")
    }
  }

  @Test func aCgroupV1QuotaIsQuotaOverPeriod() {
    let mounts = "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
    let cgroup = "4:memory:/job\n3:cpu,cpuacct:/job\n"
    func cpus(_ files: [String: String]) -> Int? {
      AvailableCores.quotaCPUs(cgroupFile: cgroup, mountInfo: mounts, read: reader(files))
    }
    let job = "/sys/fs/cgroup/cpu,cpuacct/job/"
    #expect(cpus([job + "cpu.cfs_quota_us": "400000\n", job + "cpu.cfs_period_us": "100000\n"]) == 4)
    #expect(cpus([job + "cpu.cfs_quota_us": "-1\n", job + "cpu.cfs_period_us": "100000\n"]) == nil)
    #expect(cpus([job + "cpu.cfs_quota_us": "400000\n"]) == nil)
    // The cpuset and cpuacct hierarchies are not the cpu controller's.
    let other = "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    #expect(
      AvailableCores.quotaCPUs(
        cgroupFile: "3:cpuset:/job\n", mountInfo: other,
        read: reader([
          "/sys/fs/cgroup/cpuset/job/cpu.cfs_quota_us": "100000",
          "/sys/fs/cgroup/cpuset/job/cpu.cfs_period_us": "100000",
        ]))
        == nil)
  }

  @Test func anythingMissingOrMalformedIsNoLimit() {
    #expect(cores(active: 16) == 16)
    #expect(cores(status: "Name:\tx\n", active: 16) == 16)
    #expect(cores(status: "Cpus_allowed_list:\tjunk\n", active: 16) == 16)
    for text in ["0", "-2", "many", ""] {
      #expect(cores(environment: ["SLURM_CPUS_ON_NODE": text], active: 16) == 16)
    }
    #expect(cores(active: 0) == 1)
  }

  @Test func thisProcessCountsWhatItReads() throws {
    let cgroup = try #require(KernelFiles.text("/proc/self/cgroup"))
    let mounts = try #require(KernelFiles.text("/proc/self/mountinfo"))
    #expect(
      AvailableCores.count
        == AvailableCores.current(
          status: KernelFiles.text("/proc/self/status"),
          quota: AvailableCores.quotaCPUs(
            cgroupFile: cgroup, mountInfo: mounts, read: KernelFiles.text),
          environment: ProcessInfo.processInfo.environment,
          activeProcessors: ProcessInfo.processInfo.activeProcessorCount))
    #expect(AvailableCores.count >= 1)
    #expect(ParallelMap.partCount == AvailableCores.count)
  }
}
