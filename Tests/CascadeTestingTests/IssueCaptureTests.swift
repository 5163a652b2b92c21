import Cascade
import CascadeTesting
import Testing

@Suite(.timeLimit(.minutes(10)))
struct IssueCaptureTests {
  @Test func anIssueReportedInsideGoesToTheHandlerNotToTheTest() {
    reportRuntimeWarningsAsTestFailures()
    let reported = LockIsolated<[ReportedIssue]>([])
    let line: UInt = #line + 2
    let result = withIssueHandler({ issue in reported.withValue { $0.append(issue) } }) {
      reportIssue("the disk is full")
      return 7
    }
    #expect(result == 7)
    #expect(
      reported.value == [
        ReportedIssue(
          message: "the disk is full", fileID: "CascadeTestingTests/IssueCaptureTests.swift",
          line: line)
      ])
  }

  @Test func theHandlerRunsBeforeReportIssueReturns() {
    let order = LockIsolated<[String]>([])
    withIssueHandler({ _ in order.withValue { $0.append("handler") } }) {
      reportIssue("saving failed")
      order.withValue { $0.append("after the report") }
    }
    #expect(order.value == ["handler", "after the report"])
  }

  @Test func anAsynchronousOperationAndTheTasksItStartsAreCovered() async {
    let reported = LockIsolated<[String]>([])
    await withIssueHandler({ issue in reported.withValue { $0.append(issue.message) } }) {
      reportIssue("outer")
      await Task { reportIssue("from a child task") }.value
    }
    #expect(reported.value == ["outer", "from a child task"])
  }

  @Test func afterTheOperationIssuesFailTheTestAgain() {
    reportRuntimeWarningsAsTestFailures()
    withIssueHandler({ _ in }) { reportIssue("handled") }
    withKnownIssue {
      reportIssue("not handled")
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "not handled"
    }
  }
}
