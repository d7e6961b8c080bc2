import Foundation
import Testing

@testable import SmartStackBase

/// `MemoryLimit`: the memory a process may use, its cgroup's limit where that is smaller
/// than the machine's (the default of `replay --max-memory`).
@Suite("Memory limit: a container's or job's cgroup limit is found, in v1 and v2")
struct MemoryLimitTests {
  /// A file system of `files` (path: text) for `cgroupLimit`'s reads.
  private func reader(_ files: [String: String]) -> (String) -> String? { { files[$0] } }

  private let version2Mounts = """
    22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw
    30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate
    """

  @Test func aVersion2JobLimitIsTheSmallestOverItsFolderAndTheFoldersAboveIt() {
    // A Slurm job step inside a job with --mem=4G, on a machine whose top has no limit.
    let cgroup = "0::/system.slice/slurmstepd.scope/job_42/step_0/user/task_0\n"
    let base = "/sys/fs/cgroup/system.slice/slurmstepd.scope"
    let files = [
      "/sys/fs/cgroup/memory.max": "max\n",
      "/sys/fs/cgroup/system.slice/memory.max": "max\n",
      base + "/memory.max": "max\n",
      base + "/job_42/memory.max": "4294967296\n",
      base + "/job_42/step_0/memory.max": "max\n",
      base + "/job_42/step_0/user/memory.max": "max\n",
      base + "/job_42/step_0/user/task_0/memory.max": "max\n",
    ]
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: version2Mounts, read: reader(files)) == 4_294_967_296)
    // A tighter limit further in wins; none anywhere is no limit.
    var tighter = files
    tighter[base + "/job_42/step_0/user/task_0/memory.max"] = "1073741824"
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: version2Mounts, read: reader(tighter)) == 1 << 30)
    let unlimited = files.mapValues { _ in "max\n" }
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: version2Mounts, read: reader(unlimited)) == nil)
  }

  @Test func aContainerWithItsOwnNamespaceReadsTheMountPoint() {
    // A Kubernetes pod with a cgroup namespace: its cgroup is "/", the mount's root.
    let files = ["/sys/fs/cgroup/memory.max": "536870912\n"]
    #expect(
      MemoryLimit.cgroupLimit(cgroupFile: "0::/\n", mountInfo: version2Mounts, read: reader(files)) == 536_870_912)
  }

  @Test func aVersion1LimitMapsThePathThroughTheMountsRoot() {
    // Docker without a cgroup namespace: the memory hierarchy's mount root is the
    // container's own cgroup, which /proc/self/cgroup names by its host path.
    let cgroup = """
      12:pids:/docker/abc
      4:cpu,cpuacct:/docker/abc
      9:memory:/docker/abc
      0::/docker/abc
      """
    let mounts = """
      700 699 0:60 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory
      701 699 0:61 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct
      """
    let files = ["/sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456\n"]
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: mounts, read: reader(files)) == 268_435_456)
    // v1's "no limit" is a page-rounded 2^63 - 1.
    let unlimited = ["/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"]
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: mounts, read: reader(unlimited)) == nil)
  }

  @Test func aHostPathUnderARootMountFallsBackToTheFolderThatExists() {
    // A container shown its host path, with its cgroup at the mount's root (mount root
    // "/"): the folder of the whole path does not exist; its tail "/job" does.
    let cgroup = "4:memory:/process_api/89cb/job\n"
    let mounts = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    let files = [
      "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712",
      "/sys/fs/cgroup/memory/job/memory.limit_in_bytes": "100663296",
    ]
    #expect(MemoryLimit.cgroupLimit(cgroupFile: cgroup, mountInfo: mounts, read: reader(files)) == 100_663_296)
    #expect(
      ControlGroups.folders(
        of: "/process_api/89cb/job", in: .init(root: "/", point: "/sys/fs/cgroup/memory", version2: false),
        exists: { files[$0 + "/memory.limit_in_bytes"] != nil })
        == ["/sys/fs/cgroup/memory/job", "/sys/fs/cgroup/memory"])
  }

  @Test func mountsAreReadWithEscapedPathsAndOtherLinesIgnored() {
    let mounts = """
      40 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
      41 31 0:39 / /mnt/my\\040cgroups rw shared:9 master:2 - cgroup cgroup rw,memory
      42 31 0:40 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
      43 31 0:41 / /data rw - ext4 /dev/sdb rw
      a line that is no mount
      """
    #expect(
      ControlGroups.mounts(mounts, controller: "memory") == [
        .init(root: "/", point: "/sys/fs/cgroup/unified", version2: true),
        .init(root: "/", point: "/mnt/my cgroups", version2: false),
      ])
  }

  @Test func aSlurmJobsMemoryComesFromItsEnvironmentInMebibytes() {
    #expect(MemoryLimit.slurmLimit(["SLURM_MEM_PER_NODE": "4096"]) == 4 << 30)
    #expect(MemoryLimit.slurmLimit(["SLURM_MEM_PER_CPU": "1000", "SLURM_CPUS_ON_NODE": "4"]) == 4000 << 20)
    // Per node wins over per CPU; a CPU count is needed for per CPU.
    #expect(
      MemoryLimit.slurmLimit(["SLURM_MEM_PER_NODE": "2000", "SLURM_MEM_PER_CPU": "1000", "SLURM_CPUS_ON_NODE": "4"])
        == 2000 << 20)
    #expect(MemoryLimit.slurmLimit(["SLURM_MEM_PER_CPU": "1000"]) == nil)
    for bad in ["", "0", "-5", "4G", "1.5"] {
      #expect(MemoryLimit.slurmLimit(["SLURM_MEM_PER_NODE": bad]) == nil, "\(bad)")
    }
    #expect(MemoryLimit.slurmLimit([:]) == nil)
    // The process may use no more than a job's memory.
    #expect(MemoryLimit.current(environment: ["SLURM_MEM_PER_NODE": "64"]) == 64 << 20)
  }

  @Test func withNoCgroupOrNoMountThereIsNoLimit() {
    #expect(MemoryLimit.cgroupLimit(cgroupFile: "", mountInfo: version2Mounts, read: { _ in "1024" }) == nil)
    #expect(MemoryLimit.cgroupLimit(cgroupFile: "0::/\n", mountInfo: "", read: { _ in "1024" }) == nil)
    #expect(MemoryLimit.parseLimit("max") == nil)
    #expect(MemoryLimit.parseLimit("12x") == nil)
    #expect(MemoryLimit.parseLimit(" 4096\n") == 4096)
  }
}
