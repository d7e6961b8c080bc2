import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments

/// Keeps every outcome it is told.
struct StandardTestObserver: OutcomeObserver {
  var outcomes: [VisitOutcome] = []
  var responses: [VisitResponse] = []
  var windows = 0
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) { outcomes.append(outcome) }
  mutating func responded(_ response: VisitResponse) { responses.append(response) }
  mutating func windowEnded(instance: Int32) { windows += 1 }
}

