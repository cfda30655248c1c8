// Property files and overrides: good input parses to YCSB's meaning, bad
// input fails with a message naming the problem.
#include "workload_properties.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "core_workload.h"
#include "gtest/gtest.h"

namespace ycsb {
namespace {

std::string WorkloadDir() {
  const char* d = getenv("YCSB_WORKLOADS");
  return d ? d : "ycsb/workloads";
}

std::string ErrorOf(const Properties& p) {
  try {
    p.CheckAllKnown();
    WorkloadSpec::FromProperties(p);
  } catch (const PropertyError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkloadProperties, EveryCoreWorkloadFileParses) {
  for (char w = 'a'; w <= 'f'; w++) {
    Properties p;
    p.LoadFile(WorkloadDir() + "/workload" + w);
    EXPECT_EQ(ErrorOf(p), "") << w;
  }
}

TEST(WorkloadProperties, WorkloadAAndOverrides) {
  Properties p;
  p.LoadFile(WorkloadDir() + "/workloada");
  p.SetFromArgument("recordcount=5000");
  p.SetFromArgument("operationcount = 1e6");
  p.SetFromArgument("requestdistribution=uniform");
  WorkloadSpec s = WorkloadSpec::FromProperties(p);
  EXPECT_EQ(s.record_count, 5000u);
  EXPECT_EQ(s.operation_count, 1000000u);
  EXPECT_EQ(s.request_distribution, "uniform");
  EXPECT_DOUBLE_EQ(s.proportion[static_cast<int>(OpType::kRead)], 0.5);
  EXPECT_DOUBLE_EQ(s.proportion[static_cast<int>(OpType::kUpdate)], 0.5);
  EXPECT_EQ(s.value_size(), 1000u);  // YCSB's 10 fields of 100 bytes
}

TEST(WorkloadProperties, FileSyntax) {
  std::string path = std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
                     "/ycsb_props_syntax";
  {
    std::ofstream f(path);
    f << "# comment\n! also a comment\n\n  recordcount = 42  \nfieldlength: 7\n";
  }
  Properties p;
  p.LoadFile(path);
  EXPECT_EQ(p.GetCount("recordcount", 0), 42u);
  EXPECT_EQ(p.GetCount("fieldlength", 0), 7u);
  {
    std::ofstream f(path);
    f << "recordcount 42\n";
  }
  Properties bad;
  try {
    bad.LoadFile(path);
    FAIL() << "a line without '=' must fail";
  } catch (const PropertyError& e) {
    EXPECT_NE(std::string(e.what()).find(":1:"), std::string::npos) << e.what();
  }
}

TEST(WorkloadProperties, BadInputNamesTheProblem) {
  auto error_with = [](const std::string& assignment) {
    Properties p;
    p.LoadFile(WorkloadDir() + "/workloada");
    p.SetFromArgument(assignment);
    return ErrorOf(p);
  };
  EXPECT_NE(error_with("requestdistribution=pareto").find("pareto"), std::string::npos);
  EXPECT_NE(error_with("readproportion=0.7").find("sum to 1"), std::string::npos);
  EXPECT_NE(error_with("recordcount=lots").find("recordcount"), std::string::npos);
  EXPECT_NE(error_with("recordcount=-5").find("recordcount"), std::string::npos);
  EXPECT_NE(error_with("recordcount=1.5").find("recordcount"), std::string::npos);
  EXPECT_NE(error_with("readproportion=half").find("readproportion"), std::string::npos);
  EXPECT_NE(error_with("recordcuont=10").find("recordcuont"), std::string::npos);
  EXPECT_NE(error_with("insertorder=random").find("insertorder"), std::string::npos);
  Properties p;
  try {
    p.LoadFile("/nonexistent/workloadz");
    FAIL();
  } catch (const PropertyError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/workloadz"), std::string::npos);
  }
  EXPECT_THROW(p.SetFromArgument("novalue"), PropertyError);
  EXPECT_THROW(ParseByteSize("x", "12Q"), PropertyError);
  EXPECT_EQ(ParseByteSize("x", "64M"), 64u << 20);
  EXPECT_EQ(ParseByteSize("x", "4096"), 4096u);
}

// One grammar for every size the fork's tools read (util/vlsm_byte_size.h):
// a size past 2^64 - 1 is refused as bad input, not wrapped round or thrown
// as std::out_of_range past the property's message.
TEST(WorkloadProperties, ByteSizesRefuseWhatTheyCannotHold) {
  EXPECT_EQ(ParseByteSize("x", " 8g "), uint64_t{8} << 30);
  EXPECT_EQ(ParseByteSize("x", "16777215G"), uint64_t{16777215} << 30);
  EXPECT_THROW(ParseByteSize("x", "17179869184G"), PropertyError);  // 2^64
  EXPECT_THROW(ParseByteSize("x", "99999999999999999999"), PropertyError);
  EXPECT_THROW(ParseByteSize("x", "-1"), PropertyError);
  EXPECT_THROW(ParseByteSize("x", "1.5M"), PropertyError);
  EXPECT_THROW(ParseByteSize("x", "M"), PropertyError);
  EXPECT_THROW(ParseByteSize("x", ""), PropertyError);
}

TEST(WorkloadProperties, KeysAreYcsbStyle) {
  Properties p;
  p.LoadFile(WorkloadDir() + "/workloada");
  CoreWorkload hashed(WorkloadSpec::FromProperties(p), 1);
  EXPECT_EQ(hashed.KeyOf(0).rfind("user", 0), 0u);
  EXPECT_NE(hashed.KeyOf(1), hashed.KeyOf(2));
  p.Set("insertorder", "ordered");
  p.Set("zeropadding", "6");
  CoreWorkload ordered(WorkloadSpec::FromProperties(p), 1);
  EXPECT_EQ(ordered.KeyOf(42), "user000042");
}

}  // namespace
}  // namespace ycsb
