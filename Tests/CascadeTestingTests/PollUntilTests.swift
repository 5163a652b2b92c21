import CascadeTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2)))
struct PollUntilTests {
  @Test func returnsOnceTheConditionHoldsWithoutFailing() async {
    let flag = Mutex(false)
    let setter = Task.detached {
      try? await Task.sleep(for: .milliseconds(20))
      flag.withLock { $0 = true }
    }
    let held = await pollUntil("the flag is set") { flag.withLock { $0 } }
    #expect(held)
    await setter.value
  }

  @Test func aConditionThatNeverHoldsFailsTheTestAtTheCallerAfterTheTimeout() async {
    let start = ContinuousClock.now
    var returned: Bool?
    await withKnownIssue {
      returned = await pollUntil("the observer to register", timeout: .milliseconds(200)) {
        false
      }
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("'the observer to register'")
        && message.contains("PollUntilTests.swift") && message.contains("0.2 seconds")
        && issue.sourceLocation?.fileID.hasSuffix("PollUntilTests.swift") == true
    }
    #expect(returned == false)
    #expect(ContinuousClock.now - start >= .milliseconds(200))
  }

  @Test func withoutADescriptionTheFailureNamesTheWait() async {
    await withKnownIssue {
      await pollUntil(timeout: .milliseconds(10)) { false }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("the condition passed to pollUntil")
    }
  }

  @Test func aCancelledWaitReturnsFalseWithoutFailing() async {
    let waiter = Task { await pollUntil(timeout: .seconds(60)) { false } }
    waiter.cancel()
    #expect(await waiter.value == false)
  }
}
