import Foundation
import Testing
import SmartStackKit
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// Student's t quantiles against published values, and its distribution function's
/// symmetry and monotonicity.
@Suite("Student's t distribution")
struct StudentTTests {
  /// t₀.₉₇₅ and t₀.₉₉₅ from standard tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2),
  /// to their published 3 decimals.
  @Test(arguments: [
    (0.975, 1.0, 12.706), (0.975, 2.0, 4.303), (0.975, 5.0, 2.571), (0.975, 19.0, 2.093),
    (0.975, 59.0, 2.001), (0.995, 10.0, 3.169), (0.995, 19.0, 2.861), (0.95, 30.0, 1.697),
  ])
  func quantilesMatchPublishedTables(p: Double, nu: Double, expected: Double) {
    let q = StudentT.quantile(p, degreesOfFreedom: nu)
    #expect(abs(q - expected) < 0.0006, "t(\(p), \(nu)) = \(q), table \(expected)")
  }

  @Test func manyDegreesOfFreedomApproachTheNormal() {
    #expect(abs(StudentT.quantile(0.975, degreesOfFreedom: 1e7) - 1.959964) < 1e-5)
  }

  @Test func quantileInvertsTheDistributionFunctionAndIsSymmetric() {
    for nu in [1.0, 2.5, 7, 40] {
      for p in [0.001, 0.1, 0.3, 0.6, 0.9, 0.99, 0.99999] {
        let q = StudentT.quantile(p, degreesOfFreedom: nu)
        #expect(abs(StudentT.cdf(q, degreesOfFreedom: nu) - p) < 1e-10, "nu \(nu) p \(p)")
        #expect(q == -StudentT.quantile(1 - p, degreesOfFreedom: nu))
      }
    }
    #expect(StudentT.quantile(0.5, degreesOfFreedom: 3) == 0)
    #expect(StudentT.cdf(.infinity, degreesOfFreedom: 3) == 1)
  }
}

/// The bias interval of `validation.csv`: Student t over the replicates, and a
/// family-wise (Bonferroni) version over the rows of one logging strategy and estimator.
@Suite("Estimator validation intervals")
struct ValidationIntervalTests {
  private func row(bias: Double, se: Double, replicates: Int, family: Int) -> ValidationRow {
    let half = StudentT.quantile(0.975, degreesOfFreedom: Double(replicates - 1)) * se
    return ValidationRow(
      logging: "random", strategy: "static", estimator: .ips, metric: "hit_rate", replicates: replicates,
      truth: 0.5, estimate: 0.5 + bias, bias: bias, biasLow: bias - half, biasHigh: bias + half,
      biasStandardError: se, familySize: family, rmse: 0, coverage: 1, zeroProbabilityShare: 0)
  }

  /// With 20 replicates, a bias of 2.2 standard errors is outside the row's 95 % interval
  /// (t₀.₉₇₅(19) = 2.093) but inside the family-wise one of 20 rows (t_{1−0.025/20}(19) =
  /// 3.58); 3.7 standard errors is outside both.
  @Test func familyWiseIntervalIsWiderThanTheRowsOwn() {
    let near = row(bias: 2.2, se: 1, replicates: 20, family: 20)
    #expect(!near.unbiasedWithinInterval)
    #expect(near.unbiasedFamilyWise)
    let far = row(bias: 3.7, se: 1, replicates: 20, family: 20)
    #expect(!far.unbiasedFamilyWise)
    // A family of one is the row's own 95 % interval.
    #expect(!row(bias: 2.2, se: 1, replicates: 20, family: 1).unbiasedFamilyWise)
    #expect(row(bias: 2.0, se: 1, replicates: 20, family: 1).unbiasedFamilyWise)
  }

  /// Few replicates widen the interval (t, not the normal 1.96): a bias of 2.5 standard
  /// errors over 5 replicates (t₀.₉₇₅(4) = 2.776) is within it.
  @Test func fewReplicatesUseStudentsT() {
    #expect(row(bias: 2.5, se: 1, replicates: 5, family: 1).unbiasedWithinInterval)
    #expect(!row(bias: 2.5, se: 1, replicates: 500, family: 1).unbiasedWithinInterval)
  }

  /// One replicate gives no interval: both flags are 0, never "unbiased" by default.
  @Test func oneReplicateIsNeverCalledUnbiased() {
    let one = ValidationRow(
      logging: "random", strategy: "static", estimator: .ips, metric: "hit_rate", replicates: 1, truth: 0.5,
      estimate: 0.5, bias: 0, biasLow: .nan, biasHigh: .nan, biasStandardError: .nan, familySize: 4, rmse: 0,
      coverage: 1, zeroProbabilityShare: 0)
    #expect(!one.unbiasedWithinInterval)
    #expect(!one.unbiasedFamilyWise)
  }

  /// `run` sets each row's family to the rows of its logging strategy and estimator, and
  /// the interval it writes is the Student-t one.
  @Test func runSetsFamiliesAndStudentIntervals() async throws {
    let scenario = try bundledScenario("tiny")
    let r = StrategyRegistry.builtIn
    let rows = try await EstimatorValidation.run(
      scenario, logging: [try r.parse("random")], targets: try r.parseList("static,mfu,mru"), replicates: 3,
      seed: 5, options: SimulationOptions(), resamples: 20)
    #expect(!rows.isEmpty)
    for row in rows {
      #expect(row.familySize == rows.filter { $0.estimator == row.estimator }.count)
      let t = StudentT.quantile(0.975, degreesOfFreedom: Double(row.replicates - 1))
      #expect(abs((row.biasHigh - row.bias) - t * row.biasStandardError) < 1e-12)
    }
  }
}
