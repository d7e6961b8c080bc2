import Foundation
import Testing
@testable import SmartStackBase

/// The cores a process may use (`AvailableCores`): the machine's active processors, fewer
/// under an affinity mask or in a Slurm job given fewer CPUs.
@Suite("The cores a process may use: its affinity mask and a Slurm job's CPUs")
struct AvailableCoresTests {
  static let status = "Name:\tsmartstack\nThreads:\t1\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"

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
    #expect(AvailableCores.current(status: Self.status, environment: [:], activeProcessors: 64) == 2)
    #expect(AvailableCores.current(status: "Cpus_allowed_list:\t5\n", environment: [:], activeProcessors: 64) == 1)
    // A mask wider than the processors Foundation counts does not add any.
    #expect(AvailableCores.current(status: "Cpus_allowed_list:\t0-127\n", environment: [:], activeProcessors: 8) == 8)
  }

  @Test func aSlurmJobsCPUsBoundThemToo() {
    let slurm = ["SLURM_CPUS_ON_NODE": "4"]
    #expect(AvailableCores.current(status: nil, environment: slurm, activeProcessors: 64) == 4)
    #expect(AvailableCores.current(status: Self.status, environment: slurm, activeProcessors: 64) == 2)
  }

  @Test func anythingMissingOrMalformedIsNoLimit() {
    #expect(AvailableCores.current(status: nil, environment: [:], activeProcessors: 16) == 16)
    #expect(AvailableCores.current(status: "Name:\tx\n", environment: [:], activeProcessors: 16) == 16)
    #expect(AvailableCores.current(status: "Cpus_allowed_list:\tjunk\n", environment: [:], activeProcessors: 16) == 16)
    for text in ["0", "-2", "many", ""] {
      #expect(AvailableCores.current(status: nil, environment: ["SLURM_CPUS_ON_NODE": text], activeProcessors: 16) == 16)
    }
    #expect(AvailableCores.current(status: nil, environment: [:], activeProcessors: 0) == 1)
  }

  @Test func thisProcessCountsWhatItReads() {
    #expect(
      AvailableCores.count
        == AvailableCores.current(
          status: MemoryLimit.readText("/proc/self/status"), environment: ProcessInfo.processInfo.environment,
          activeProcessors: ProcessInfo.processInfo.activeProcessorCount))
    #expect(AvailableCores.count >= 1)
    #expect(ParallelMap.partCount == AvailableCores.count)
  }
}
