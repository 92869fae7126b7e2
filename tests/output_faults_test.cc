// Faults while writing (docs/reliability.md): a full disk or a file size
// limit fails with exit 1 and one line naming the file and the system error,
// no library diagnostics, the destination untouched and nothing left behind.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "output/sink.h"
#include "test_util.h"

namespace {

using pascal_test::CliResult;
using pascal_test::exists;
using pascal_test::list_dir;
using pascal_test::slurp;

// 300 000 points in five batches of the CLI, 4096-row chunks: a run long
// enough to be killed in the middle, short enough to repeat.
const char *kSpec = "name: faults\n"
                    "models: [ttl, lru]\n"
                    "columns: [K_ttl, K_lru, rho_lru]\n"
                    "fixed: {N: 2048, pattern: uniform}\n"
                    "axes:\n"
                    "  M: [24, 96]\n"
                    "  seed: {from: 1, to: 600, step: 1}\n"
                    "  C: {from: 1, to: 2000, num: 250}\n"
                    "output: {chunk_rows: 4096}\n";
// A failure while writing: exit 1, one line naming the file and the
// reason, and nothing from a library.
void ExpectWriteFailure(const CliResult &r, const std::string &path, const std::string &reason)
{
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    for (const char *noise : {"HDF5-DIAG", "#000:", "major:", "libgomp", "Segmentation"})
        EXPECT_EQ((r.out + r.err).find(noise), std::string::npos) << noise << ": " << r.err;
}

// A real full disk: a small tmpfs mounted for the test (root only).
class FullDisk : public pascal_test::TempDirTest {
protected:
    std::string fs;
    bool mounted = false;

    void SetUp() override
    {
        TempDirTest::SetUp();
        fs = dir + "/fs";
        ASSERT_EQ(mkdir(fs.c_str(), 0755), 0);
        if (geteuid() != 0)
            GTEST_SKIP() << "mounting a small tmpfs needs root; FileSizeLimit covers the rest";
        if (mount("tmpfs", fs.c_str(), "tmpfs", 0, "size=256k") != 0)
            GTEST_SKIP() << "cannot mount a tmpfs here: " << strerror(errno);
        mounted = true;
    }
    void TearDown() override
    {
        if (mounted)
            umount(fs.c_str());
        TempDirTest::TearDown();
    }
    // Fills the tmpfs but for `leave` bytes.
    void Fill(uint64_t leave = 0)
    {
        struct statvfs v;
        ASSERT_EQ(statvfs(fs.c_str(), &v), 0);
        uint64_t room = (uint64_t)v.f_bavail * v.f_frsize;
        std::ofstream f(fs + "/filler", std::ios::binary);
        std::string block(4096, 'x');
        for (uint64_t n = 0; n + block.size() + leave <= room; n += block.size())
            f.write(block.data(), (long)block.size());
        if (leave == 0) /* and the last page */
            for (int i = 0; i < 4 && f.write(block.data(), 1); i++)
                f.flush();
    }
};

TEST_F(FullDisk, RunFailsCleanlyAndKeepsTheDestination)
{
    std::string spec = write("s.yaml", kSpec);
    for (const char *args : {"", " --compression 4", " --format csv"}) {
        std::string out = fs + "/out";
        pascal_test::write_file(fs, "out", "precious");
        CliResult r = run("run " + spec + " -o " + out + args + " --quiet");
        ExpectWriteFailure(r, out, "No space left on device");
        EXPECT_EQ(slurp(out), "precious") << args;
        EXPECT_EQ(list_dir(fs), std::vector<std::string>{"out"}) << "temporaries removed" << args;
    }
}

TEST_F(FullDisk, MergeCalibrateReportValidateFailCleanly)
{
    std::string spec = write("s.yaml", kSpec), src = PASCAL_SOURCE_DIR;
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/a.h5 --shard 1/2 --quiet").status, 0);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/b.h5 --shard 2/2 --quiet").status, 0);
    pascal_test::write_file(fs, "out", "precious");
    std::string out = fs + "/out";
    const std::string cmds[] = {
        "merge -o " + out + " " + dir + "/a.h5 " + dir + "/b.h5",
        "calibrate " + src + "/configs/calibration/synthetic-gb10-refs.csv --device " + src +
            "/configs/devices/gb10.yaml -o " + out,
        "report " + dir + "/a.h5 -o " + out,
        "validate --quiet -o " + out,
    };
    for (const std::string &cmd : cmds) {
        Fill(32 * 1024); /* room for the lock and a start, not for the file */
        CliResult r = run(cmd);
        ExpectWriteFailure(r, out, "No space left on device");
        EXPECT_EQ(slurp(out), "precious") << cmd;
        unlink((fs + "/filler").c_str());
        EXPECT_EQ(list_dir(fs), std::vector<std::string>{"out"}) << cmd;
    }
}

// A file size limit (ulimit -f) needs no privilege: writes fail with EFBIG.
class FileSizeLimit : public pascal_test::TempDirTest {
protected:
    CliResult Limited(const std::string &args)
    {
        // 1024 blocks of 512 bytes: 512 KiB per file.
        return pascal_test::run_command(dir, "ulimit -S -f 1024 && " PASCAL_CLI " " + args);
    }
};

TEST_F(FileSizeLimit, RunAndMergeFailCleanly)
{
    std::string spec = write("s.yaml", kSpec), out = dir + "/out";
    for (const char *args : {"", " --compression 1", " --format csv"}) {
        write("out", "precious");
        CliResult r = Limited("run " + spec + " -o " + out + args + " --quiet");
        ExpectWriteFailure(r, out, "File too large");
        EXPECT_EQ(slurp(out), "precious") << args;
    }
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/a.h5 --shard 1/2 --quiet").status, 0);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/b.h5 --shard 2/2 --quiet").status, 0);
    CliResult r = Limited("merge -o " + out + " " + dir + "/a.h5 " + dir + "/b.h5");
    ExpectWriteFailure(r, out, "File too large");
    EXPECT_EQ(slurp(out), "precious");
    for (const std::string &name : list_dir(dir))
        EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
}

} // namespace
