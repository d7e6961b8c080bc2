import SmartStackBase
import SmartStackData
import SmartStackEngine

extension RandomStrategy: AllowedChoiceProbabilities {
  /// 1 / |allowed| on each allowed candidate: the draws are independent and identically
  /// distributed, so every allowed candidate is the largest among the allowed with equal
  /// probability (ties between 53-bit draws, below 2^-50, are ignored).
  @inlinable public func choiceProbabilities(_ context: StackContext, allowed: [Bool], into probabilities: inout [Double]) {
    let n = EngineOrder.count(allowed)
    for i in probabilities.indices {
      probabilities[i] = i < allowed.count && allowed[i] ? 1 / Double(n) : 0
    }
  }
}
