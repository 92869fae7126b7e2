// Every CUDA kernel file compiles for both targets the project supports:
// sm_90a (H100/H200) and sm_121a (GB10).  Runs nvcc when it exists (no GPU
// needed) and skips, saying why, when it does not.  Beyond compiling, the PTX
// must show what the measurement relies on: .cg global loads in every scan,
// the cooperative grid barrier in the static and capacity scans, bulk copies
// completing on mbarriers in the TMA scan, and warp matrix operations for
// the compute.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using pascal_test::slurp;

std::string find_nvcc()
{
    const char *env = getenv("NVCC");
    if (env && *env && access(env, X_OK) == 0)
        return env;
    const char *path = getenv("PATH");
    std::stringstream ss(path ? path : "");
    std::string dir;
    while (std::getline(ss, dir, ':'))
        if (!dir.empty() && access((dir + "/nvcc").c_str(), X_OK) == 0)
            return dir + "/nvcc";
    if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        return "/usr/local/cuda/bin/nvcc";
    return "";
}

std::vector<std::string> kernel_files()
{
    std::vector<std::string> out;
    std::string dir = std::string(PASCAL_SOURCE_DIR) + "/kernels/cuda";
    if (DIR *d = opendir(dir.c_str())) {
        while (struct dirent *e = readdir(d)) {
            std::string n = e->d_name;
            if (n.size() > 3 && n.compare(n.size() - 3, 3, ".cu") == 0)
                out.push_back(n);
        }
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

class KernelsCompile : public pascal_test::TempDirTest {
protected:
    std::string nvcc;
    void SetUp() override
    {
        nvcc = find_nvcc();
        if (nvcc.empty())
            GTEST_SKIP() << "nvcc not found ($NVCC, PATH, /usr/local/cuda/bin): the CUDA kernels "
                            "cannot be compile-tested on this machine";
        TempDirTest::SetUp();
    }
    // One nvcc run per file builds sm_90a and sm_121a cubins and keeps the
    // PTX of each; returns the PTX per target, empty when compiling failed.
    std::vector<std::string> build(const std::string &file)
    {
        std::string src = std::string(PASCAL_SOURCE_DIR), stem = file.substr(0, file.size() - 3);
        std::string cmd = nvcc + " -std=c++17 -I" + src +
                          " -gencode=arch=compute_90a,code=sm_90a"
                          " -gencode=arch=compute_121a,code=sm_121a -c -keep --keep-dir " + dir +
                          " -o " + dir + "/" + stem + ".o " + src + "/kernels/cuda/" + file +
                          " >" + dir + "/log 2>&1";
        int rc = std::system(cmd.c_str());
        std::vector<std::string> out;
        EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 0) << file << ":\n" << slurp(dir + "/log");
        for (const char *arch : {"90a", "121a"}) {
            std::string base = dir + "/" + stem + ".compute_" + arch;
            EXPECT_EQ(access((base + ".cubin").c_str(), R_OK), 0) << file << " sm_" << arch;
            out.push_back(slurp(base + ".ptx"));
        }
        return out;
    }
};

TEST_F(KernelsCompile, EveryKernelFileIsTested)
{
    std::vector<std::string> want = {"flush.cu", "play.cu", "scan_capacity.cu", "scan_open.cu",
                                     "scan_static.cu"};
    EXPECT_EQ(kernel_files(), want) << "a new kernel file needs its compile test here";
}

TEST_F(KernelsCompile, StaticScanUsesCgLoadsAndAGridBarrier)
{
    for (const std::string &p : build("scan_static.cu")) {
        EXPECT_NE(p.find(".entry pascal_k_static_scan("), std::string::npos);
        EXPECT_NE(p.find("ld.global.cg"), std::string::npos);
        // cg::grid_group::sync: a CTA barrier plus a device-scope arrival.
        EXPECT_NE(p.find("barrier.sync"), std::string::npos);
        EXPECT_NE(p.find(".gpu"), std::string::npos);
        EXPECT_EQ(p.find("ld.global.ca"), std::string::npos);
    }
}

TEST_F(KernelsCompile, OpenScanHasSyncAndTmaPathsWithWmma)
{
    for (const std::string &p : build("scan_open.cu")) {
        EXPECT_NE(p.find(".entry pascal_k_sync_scan("), std::string::npos);
        EXPECT_NE(p.find(".entry pascal_k_tma_scan("), std::string::npos);
        EXPECT_NE(p.find("ld.global.cg"), std::string::npos);
        EXPECT_NE(p.find("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"),
                  std::string::npos);
        EXPECT_NE(p.find("mbarrier.arrive.expect_tx"), std::string::npos);
        EXPECT_NE(p.find("mbarrier.try_wait.parity"), std::string::npos);
        EXPECT_NE(p.find("wmma.mma.sync"), std::string::npos);
        EXPECT_NE(p.find("%globaltimer"), std::string::npos);
        EXPECT_EQ(p.find("trap;"), std::string::npos) << "TMA fallback compiled in";
    }
}

TEST_F(KernelsCompile, CapacityScanSweepsWithGridBarriers)
{
    for (const std::string &p : build("scan_capacity.cu")) {
        EXPECT_NE(p.find(".entry pascal_k_capacity_scan("), std::string::npos);
        EXPECT_NE(p.find("ld.global.cg"), std::string::npos);
        EXPECT_NE(p.find("barrier.sync"), std::string::npos);
    }
}

TEST_F(KernelsCompile, FlushReadsThroughL2)
{
    for (const std::string &p : build("flush.cu")) {
        EXPECT_NE(p.find(".entry pascal_k_scrub("), std::string::npos);
        EXPECT_NE(p.find(".entry pascal_k_fill("), std::string::npos);
        EXPECT_NE(p.find("ld.global.cg"), std::string::npos);
    }
}

// The program player: its loads are ld.global.cg, with the WMMA work
// between steps, and no barrier across CTAs (no grid sync: .gpu scope).
TEST_F(KernelsCompile, PlayerLoadsThroughL2WithoutGridBarriers)
{
    for (const std::string &p : build("play.cu")) {
        EXPECT_NE(p.find(".entry pascal_k_play("), std::string::npos);
        EXPECT_NE(p.find("ld.global.cg"), std::string::npos);
        EXPECT_NE(p.find("wmma.mma.sync"), std::string::npos);
        EXPECT_EQ(p.find("ld.global.ca"), std::string::npos);
        EXPECT_EQ(p.find("atom.global"), std::string::npos);
    }
}

}  // namespace
