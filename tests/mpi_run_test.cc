// MPI runs (build/pascal-mpi under mpirun; docs/scale.md): the file is the
// one a single process writes, every dataset and every attribute, bit for
// bit (apart from `created`, `threads` and `ranks`), for 1, 2 and 3 ranks
// and 1 or 2 threads each, compressed or not; slow points move to the other
// ranks; Ctrl-C, hard kills and --resume work across ranks and across the
// two builds; the output claim and bad input speak once.  Skipped, saying
// so, when the MPI variant is not built (PASCAL_MPI=OFF or no parallel
// HDF5).
#include <gtest/gtest.h>

#include <hdf5.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

#ifdef PASCAL_MPI_CLI
const char *kMpiCli = PASCAL_MPI_CLI;
// The same with the test hooks (PASCAL_TEST_*: programs/testhooks.c).
const char *kMpiCliHooked = PASCAL_MPI_CLI_HOOKED;
const char *kMpirun = PASCAL_MPIRUN;
// What every app context of an mpirun line passes its ranks (Open MPI gives
// a -x before the first context to that context only): in a sanitized
// build, the leak suppressions for Open MPI (engine/mpi/mpi.cmake).
const char *kRankEnv = PASCAL_MPI_RANK_ENV;
#else
const char *kMpiCli = nullptr;
const char *kMpiCliHooked = nullptr;
const char *kMpirun = nullptr;
const char *kRankEnv = nullptr;
#endif

// A where filter, an enum axis and explicit phase lists (so /axes/phases and
// narrowed enum columns are written collectively too), every static model,
// and chunks of 37 rows so that windows, pieces and chunks never line up.
const char *kSpec =
    "name: mpi\n"
    "models: [ttl, lru_band, lru, sdcm, residency, che, margin]\n"
    "fixed: {assoc: 4, eps: 1.5, horizon: 1000}\n"
    "axes:\n"
    "  N: [97, 256, 611]\n"
    "  M: [3, 17]\n"
    "  pattern: [uniform, gaussian, clusters, equal]\n"
    "  sigma: [5.5]\n"
    "  clusters: [3]\n"
    "  seed: [11, 12]\n"
    "  C: {from: 1, to: 300, num: 41}\n"
    "where: 'C < N + 5'\n"
    "output: {chunk_rows: 37%s}\n";

// Uncompressed (written by each rank into its own rows), or compressed:
// deflate 4 with shuffle, or the default (deflate 1 with shuffle), which
// HDF5's collective filtered writes compress.
enum Deflate { kNone, kDeflate4, kDefault };

std::string spec_text(Deflate z)
{
    char buf[2048];
    std::snprintf(buf, sizeof buf, kSpec, z == kNone       ? ", compression: none"
                                          : z == kDeflate4 ? ", compression: 4, shuffle: true"
                                                           : "");
    return buf;
}

// ---- an independent comparison of two HDF5 files -------------------------

herr_t collect(hid_t, const char *name, const H5L_info_t *, void *data)
{
    static_cast<std::vector<std::string> *>(data)->push_back(name);
    return 0;
}

std::vector<std::string> object_names(hid_t file)
{
    std::vector<std::string> names{"."};
    H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collect, &names);
    return names;
}

// The path of the object a reference points to: references hold file
// addresses, which differ between two files that hold the same objects.
std::string ref_name(hid_t loc, const hobj_ref_t *ref)
{
    char name[512] = "";
    if (H5Rget_name(loc, H5R_OBJECT, ref, name, sizeof name) < 0)
        return "?";
    return name;
}

// An attribute holding object references (the netCDF-4 dimension lists of
// /cube): a list of the objects' paths, DIMENSION_LIST per dimension (a
// variable-length list each), REFERENCE_LIST as (dataset, dimension) pairs.
std::string refs_value(hid_t obj, hid_t a, hid_t t, hssize_t n)
{
    std::string out;
    H5T_class_t cls = H5Tget_class(t);
    if (cls == H5T_REFERENCE) {
        std::vector<hobj_ref_t> refs(static_cast<size_t>(n));
        if (n > 0 && H5Aread(a, H5T_STD_REF_OBJ, refs.data()) >= 0)
            for (const hobj_ref_t &r : refs)
                out += ref_name(obj, &r) + ";";
    } else if (cls == H5T_VLEN) {
        hid_t m = H5Tvlen_create(H5T_STD_REF_OBJ), s = H5Aget_space(a);
        std::vector<hvl_t> lists(static_cast<size_t>(n));
        if (n > 0 && H5Aread(a, m, lists.data()) >= 0) {
            for (const hvl_t &l : lists) {
                for (size_t k = 0; k < l.len; k++)
                    out += ref_name(obj, static_cast<const hobj_ref_t *>(l.p) + k) + ",";
                out += ";";
            }
            H5Dvlen_reclaim(m, s, H5P_DEFAULT, lists.data());
        }
        H5Sclose(s), H5Tclose(m);
    } else if (cls == H5T_COMPOUND) {
        struct entry {
            hobj_ref_t ref;
            int dim;
        };
        hid_t m = H5Tcreate(H5T_COMPOUND, sizeof(entry));
        H5Tinsert(m, "dataset", HOFFSET(entry, ref), H5T_STD_REF_OBJ);
        H5Tinsert(m, "dimension", HOFFSET(entry, dim), H5T_NATIVE_INT);
        std::vector<entry> e(static_cast<size_t>(n));
        if (n > 0 && H5Aread(a, m, e.data()) >= 0)
            for (const entry &x : e)
                out += ref_name(obj, &x.ref) + ":" + std::to_string(x.dim) + ";";
        H5Tclose(m);
    } else {
        out = "unexpected reference type";
    }
    return out;
}

// An attribute's value as bytes (strings as their text, references as the
// paths of what they point to).
std::string attr_value(hid_t obj, const char *name)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT), t = H5Aget_type(a), s = H5Aget_space(a);
    std::string out;
    if (H5Tdetect_class(t, H5T_REFERENCE) > 0) {
        out = refs_value(obj, a, t, H5Sget_simple_extent_npoints(s));
    } else if (H5Tis_variable_str(t) > 0) {
        char *v = nullptr;
        if (H5Aread(a, t, &v) >= 0 && v)
            out = v;
        H5free_memory(v);
    } else {
        hssize_t n = H5Sget_simple_extent_npoints(s);
        out.assign(static_cast<size_t>(n) * H5Tget_size(t), '\0');
        if (n > 0)
            H5Aread(a, t, &out[0]);
    }
    H5Sclose(s), H5Tclose(t), H5Aclose(a);
    return out;
}

std::map<std::string, std::string> attributes(hid_t obj, const std::set<std::string> &skip)
{
    std::map<std::string, std::string> out;
    H5O_info_t info;
    H5Oget_info(obj, &info);
    for (hsize_t i = 0; i < info.num_attrs; i++) {
        char name[256];
        H5Aget_name_by_idx(obj, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name,
                           H5P_DEFAULT);
        if (!skip.count(name))
            out[name] = attr_value(obj, name);
    }
    return out;
}

// A dataset's type, shape, layout (the /cube view's are virtual), chunking,
// filters and stored values as text.
std::string dataset_summary(hid_t d, std::string *bytes)
{
    hid_t t = H5Dget_type(d), s = H5Dget_space(d), p = H5Dget_create_plist(d);
    hssize_t n = H5Sget_simple_extent_npoints(s);
    size_t tl = 0;
    std::string out;
    H5Tencode(t, nullptr, &tl);
    std::string enc(tl, '\0');
    H5Tencode(t, &enc[0], &tl);
    out += "type " + enc + " points " + std::to_string(n) + " layout " +
           std::to_string(H5Pget_layout(p));
    if (H5Pget_layout(p) == H5D_CHUNKED) {
        hsize_t dims[8];
        int r = H5Pget_chunk(p, 8, dims);
        out += " chunk";
        for (int k = 0; k < r; k++)
            out += " " + std::to_string(dims[k]);
        for (int k = 0; k < H5Pget_nfilters(p); k++) {
            unsigned flags, cd[8];
            size_t ncd = 8;
            out += " filter " + std::to_string(H5Pget_filter2(p, k, &flags, &ncd, cd, 0, nullptr,
                                                                nullptr));
        }
    }
    if (H5Tis_variable_str(t) > 0) { // /cube's labels: their text
        std::vector<char *> v(static_cast<size_t>(n));
        bytes->clear();
        if (n > 0 && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0) {
            for (char *x : v)
                *bytes += std::string(x ? x : "(null)") + '\0';
            H5Dvlen_reclaim(t, s, H5P_DEFAULT, v.data());
        }
    } else {
        bytes->assign(static_cast<size_t>(n) * H5Tget_size(t), '\0');
        if (n > 0)
            H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &(*bytes)[0]);
    }
    H5Pclose(p), H5Sclose(s), H5Tclose(t);
    return out;
}

// Every difference between two files, as lines; attributes named in skip
// are left out.
std::vector<std::string> file_differences(const std::string &a, const std::string &b,
                                          const std::set<std::string> &skip)
{
    std::vector<std::string> diffs;
    hid_t fa = H5Fopen(a.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t fb = H5Fopen(b.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (fa < 0 || fb < 0) {
        diffs.push_back("cannot open " + (fa < 0 ? a : b));
    } else if (object_names(fa) != object_names(fb)) {
        diffs.push_back("the objects differ");
    } else {
        for (const std::string &name : object_names(fa)) {
            hid_t oa = H5Oopen(fa, name.c_str(), H5P_DEFAULT);
            hid_t ob = H5Oopen(fb, name.c_str(), H5P_DEFAULT);
            auto aa = attributes(oa, skip), ab = attributes(ob, skip);
            for (const auto &kv : aa)
                if (!ab.count(kv.first) || ab[kv.first] != kv.second)
                    diffs.push_back(name + "@" + kv.first);
            if (aa.size() != ab.size())
                diffs.push_back(name + ": other attributes");
            if (H5Iget_type(oa) == H5I_DATASET) {
                std::string va, vb;
                std::string sa = dataset_summary(oa, &va), sb = dataset_summary(ob, &vb);
                if (sa != sb)
                    diffs.push_back(name + ": " + sa + " / " + sb);
                else if (va != vb)
                    diffs.push_back(name + ": values");
            }
            H5Oclose(oa), H5Oclose(ob);
        }
    }
    if (fa >= 0)
        H5Fclose(fa);
    if (fb >= 0)
        H5Fclose(fb);
    return diffs;
}

const std::set<std::string> kProvenance = {"created", "threads", "ranks"};
// A resumed file records the command line of the run that created it.
const std::set<std::string> kResumed = {"created", "threads", "ranks", "command_line"};

size_t count(const std::string &text, const std::string &what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        n++;
    return n;
}

// pascal info's text without the lines that differ by design (the file's
// name, creation time, command line, threads).
std::string without_provenance(const std::string &info)
{
    static const std::regex drop(R"((^|\n)(out\.h5:|  created |  command_line |  threads )[^\n]*)");
    return std::regex_replace(info, drop, "$1");
}

// The summary from its "wrote" line on: the headline and the sizing rows.
std::string findings(const std::string &out)
{
    size_t at = out.find("  wrote ");
    return at == std::string::npos ? "" : out.substr(at);
}

class Mpi : public pascal_test::TempDirTest {
protected:
    void SetUp() override
    {
        if (!kMpiCli)
            GTEST_SKIP() << "pascal-mpi is not built (PASCAL_MPI=OFF, or no MPI or parallel "
                            "HDF5 when CMake ran): nothing to test";
        pascal_test::TempDirTest::SetUp();
    }

    // Runs `cmd` in dir/sub (created), output captured there.
    pascal_test::CliResult in(const std::string &sub, const std::string &cmd)
    {
        std::string d = dir + "/" + sub;
        std::system(("mkdir -p " + d).c_str());
        return pascal_test::run_command(d, "cd " + d + " && (" + cmd + ")");
    }
    // `pascal ARGS` in one process with `threads` threads.
    pascal_test::CliResult one(const std::string &sub, const std::string &args, int threads = 1)
    {
        return in(sub, "OMP_NUM_THREADS=" + std::to_string(threads) + " timeout 120 " +
                           PASCAL_CLI + " " + args);
    }
    // One app context of an mpirun line: "-np P -x ... pascal-mpi ARGS",
    // `threads` threads per rank, extra env ("-x NAME=VALUE ...").
    static std::string context(int ranks, int threads, const std::string &args,
                               const std::string &env = "")
    {
        const char *cli = env.find("PASCAL_TEST_") == std::string::npos ? kMpiCli : kMpiCliHooked;
        return " -np " + std::to_string(ranks) + kRankEnv + " -x OMP_NUM_THREADS=" +
               std::to_string(threads) + (env.empty() ? "" : " " + env) + " " + cli + " " + args;
    }
    // `mpirun -np P pascal-mpi ARGS`, `threads` threads per rank, extra env.
    std::string mpirun(int ranks, int threads, const std::string &args,
                       const std::string &env = "")
    {
        return std::string("timeout 120 ") + kMpirun + context(ranks, threads, args, env);
    }
    pascal_test::CliResult mpi(const std::string &sub, int ranks, int threads,
                               const std::string &args, const std::string &env = "")
    {
        return in(sub, mpirun(ranks, threads, args, env));
    }
    std::string at(const std::string &sub, const std::string &name)
    {
        return dir + "/" + sub + "/" + name;
    }
    // mpirun in the background; `seconds` after the output's journal
    // appears (the evaluation starts then, however long the ranks took to
    // start and plan: a sanitized build takes seconds), SIGTERM to every
    // rank (the children of mpirun), as a scheduler or mpirun itself sends
    // on Ctrl-C.
    pascal_test::CliResult signal_ranks(const std::string &sub, const std::string &mpirun_cmd,
                                        double seconds)
    {
        std::string script = mpirun_cmd + " & M=$!; for i in $(seq 600); do "
                             "[ -e out.h5.journal ] && break; sleep 0.1; done; sleep " +
                             std::to_string(seconds) + "; kill -TERM $(pgrep -P $M); wait $M";
        write(sub + ".sh", script);
        return in(sub, "timeout 120 sh ../" + sub + ".sh");
    }
};

// The reference is one process with one thread; every MPI variant must
// give the same bytes and the same findings.
TEST_F(Mpi, OneFileAsOneProcessWhateverRanksAndThreads)
{
    for (Deflate z : {kNone, kDeflate4, kDefault}) {
        const char *name = z == kNone ? "" : z == kDeflate4 ? " deflate 4" : " default deflate";
        write("s.yaml", spec_text(z));
        auto ref = one("ref", "run ../s.yaml -o out.h5 --batch 50");
        ASSERT_EQ(ref.status, 0) << ref.err;
        struct Variant { int ranks, threads; };
        for (Variant v : {Variant{1, 2}, Variant{2, 1}, Variant{3, 1}, Variant{2, 2}}) {
            std::string sub = "p" + std::to_string(v.ranks) + "t" + std::to_string(v.threads);
            auto r = mpi(sub, v.ranks, v.threads, "run ../s.yaml -o out.h5 --batch 50");
            ASSERT_EQ(r.status, 0) << sub << ": " << r.err;
            EXPECT_NE(r.out.find(std::to_string(v.ranks) + " MPI ranks x " +
                                 std::to_string(v.threads) + " threads"), std::string::npos)
                << r.out;
            auto diffs = file_differences(at("ref", "out.h5"), at(sub, "out.h5"), kProvenance);
            EXPECT_TRUE(diffs.empty()) << sub << name << ": "
                                       << diffs.size() << " differences, first "
                                       << (diffs.empty() ? "" : diffs[0]);
            EXPECT_EQ(findings(ref.out), findings(r.out)) << sub;
            // pascal info reads it as the one-process file (digests, axes,
            // columns, the /cube view), apart from the provenance lines.
            auto info_ref = one("ref", "info out.h5"), info = one(sub, "info out.h5");
            ASSERT_EQ(info.status, 0) << info.err;
            EXPECT_NE(info.out.find("complete: "), std::string::npos) << info.out;
            EXPECT_NE(info.out.find("sha256"), std::string::npos) << info.out;
            EXPECT_EQ(without_provenance(info.out).find("created"), std::string::npos);
            EXPECT_EQ(without_provenance(info_ref.out), without_provenance(info.out)) << sub;
            EXPECT_EQ(pascal_test::list_dir(dir + "/" + sub),
                      (std::vector<std::string>{"out.h5", "stderr", "stdout"}))
                << sub << ": a temporary, lock or journal file was left";
        }
        // The comparison sees a difference where there is one.
        auto other = one("other", "run ../s.yaml -o out.h5 --batch 50 --target 0.2");
        ASSERT_EQ(other.status, 0);
        EXPECT_FALSE(file_differences(at("ref", "out.h5"), at("other", "out.h5"), {}).empty());
        std::system(("rm -rf " + dir + "/p* " + dir + "/ref " + dir + "/other").c_str());
    }
}

// Pieces go to the rank that asks: a rank made 60 ms slower per piece does
// far less than the half a static split would give it, and the file is
// still the one-process file.
// The run summary's exact sizing (each rank searches the scenarios of its
// pieces, the answers combined as one process folds them) and a sampled
// spec (its draws shared as raw indices): the same file and findings as
// one process.
TEST_F(Mpi, ExactSizingAndSampledSpecsAsOneProcess)
{
    const std::string exact = "name: exact\nmodels: [ttl, lru]\nfixed: {sigma: 9.5}\naxes:\n"
                              "  N: [211, 640]\n  M: [5, 23]\n  pattern: [uniform, gaussian]\n"
                              "  seed: [3, 4, 5]\n  C: {from: 2, to: 600, num: 23}\n"
                              "output: {chunk_rows: 37}\n";
    const std::string sampled = "name: sampled\nmodels: [ttl, lru, residency]\n"
                                "fixed: {N: 300, block_bytes: 4KiB}\n"
                                "sample: {method: lhs, n: 90, seed: 8, inner: grid}\naxes:\n"
                                "  M: [3, 17, 40]\n  pattern: [uniform, gaussian]\n"
                                "  sigma: {from: 0.5, to: 90, scale: log}\n  seed: {from: 1, to: 100000}\n"
                                "  capacity_bytes: [64KiB, 256KiB, 1MiB]\noutput: {chunk_rows: 37}\n";
    for (const std::string *text : {&exact, &sampled}) {
        write("s.yaml", *text);
        auto ref = one("ref", "run ../s.yaml -o out.h5 --batch 50");
        ASSERT_EQ(ref.status, 0) << ref.err;
        if (text == &exact)
            EXPECT_NE(ref.out.find("exact to a block"), std::string::npos) << ref.out;
        for (int ranks : {2, 3}) {
            std::string sub = (text == &exact ? "exact" : "sampled") + std::to_string(ranks);
            auto r = mpi(sub, ranks, 1, "run ../s.yaml -o out.h5 --batch 50");
            ASSERT_EQ(r.status, 0) << sub << ": " << r.err;
            auto diffs = file_differences(at("ref", "out.h5"), at(sub, "out.h5"), kProvenance);
            EXPECT_TRUE(diffs.empty()) << sub << ": " << diffs.size() << " differences, first "
                                       << (diffs.empty() ? "" : diffs[0]);
            EXPECT_EQ(findings(ref.out), findings(r.out)) << sub;
        }
        std::system(("rm -rf " + dir + "/ref").c_str());
    }
}

TEST_F(Mpi, ASlowRankGetsLessWork)
{
    write("s.yaml", spec_text(kNone));
    auto ref = one("ref", "run ../s.yaml -o out.h5 --batch 50");
    ASSERT_EQ(ref.status, 0) << ref.err;
    std::string args = "run ../s.yaml -o out.h5 --batch 50";
    auto r = in("slow", "timeout 120 " + std::string(kMpirun) +
                            context(1, 1, args, "-x PASCAL_TEST_SLOW_BATCH_MS=60") + " :" +
                            context(1, 1, args));
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("2 MPI ranks x 1 threads: (\\d+) to "
                                                        "(\\d+) rows each,"))) << r.out;
    double lo = std::stod(m[1]), hi = std::stod(m[2]);
    EXPECT_LT(lo / (lo + hi), 0.35) << r.out;
    EXPECT_TRUE(file_differences(at("ref", "out.h5"), at("slow", "out.h5"), kProvenance).empty());
}

// SIGTERM to every rank (as mpirun forwards Ctrl-C, or a scheduler sends at
// the end of a job) stops the run after the pieces in flight: exit 130, the
// finished whole chunks in out.h5.partial, no journal; --resume on another
// number of ranks, or in one process, completes the one-process file.
TEST_F(Mpi, StopAndResumeAcrossRanksAndBuilds)
{
    write("s.yaml", spec_text(kDefault));
    auto ref = one("ref", "run ../s.yaml -o out.h5 --batch 50");
    ASSERT_EQ(ref.status, 0) << ref.err;
    for (const char *resume_with : {"mpi", "one"}) {
        std::string sub = std::string("stop-") + resume_with;
        std::string cmd = std::string(kMpirun) +
                          context(2, 1, "run ../s.yaml -o out.h5 --batch 20",
                                  "-x PASCAL_TEST_SLOW_BATCH_MS=100");
        auto r = signal_ranks(sub, cmd, 1.0);
        ASSERT_EQ(r.status, 130) << r.out << r.err;
        EXPECT_NE(r.err.find("continue with: pascal run ../s.yaml --output out.h5 --batch 20 "
                             "--resume"), std::string::npos) << r.err;
        EXPECT_EQ(count(r.err, "rows kept in out.h5.partial"), 1u) << r.err;
        // the partial file, and the index of its chunks for the resume
        EXPECT_EQ(pascal_test::list_dir(dir + "/" + sub),
                  (std::vector<std::string>{"out.h5.partial", "out.h5.partial.index", "stderr",
                                            "stdout"}));
        auto again = std::string(resume_with) == "mpi"
                         ? mpi(sub, 3, 1, "run ../s.yaml -o out.h5 --batch 50 --resume")
                         : one(sub, "run ../s.yaml -o out.h5 --batch 50 --resume");
        ASSERT_EQ(again.status, 0) << again.err;
        EXPECT_NE(again.out.find("resumed: "), std::string::npos) << again.out;
        EXPECT_TRUE(file_differences(at("ref", "out.h5"), at(sub, "out.h5"), kResumed).empty())
            << sub;
        EXPECT_EQ(findings(ref.out), findings(again.out));
    }
    // A run stopped in one process continues under mpirun, unless it is
    // compressed: that file's chunks are allocated as written, which MPI-IO
    // cannot extend; it is refused, left as it was, and one process
    // continues it.
    for (bool compressed : {false, true}) {
        std::string sub = compressed ? "serial-stop-z" : "serial-stop";
        write(sub + ".yaml", spec_text(compressed ? kDefault : kNone));
        auto want = one(sub + "-ref", "run ../" + sub + ".yaml -o out.h5 --batch 50");
        auto r = in(sub, std::string("OMP_NUM_THREADS=1 PASCAL_TEST_SLOW_BATCH_MS=40 ") +
                             PASCAL_CLI_HOOKED + " run ../" + sub + ".yaml -o out.h5 --batch 50 & "
                             "P=$!; sleep 1.5; kill -INT $P; wait $P");
        ASSERT_EQ(r.status, 130) << r.err;
        std::string kept = pascal_test::slurp(at(sub, "out.h5.partial"));
        auto again = mpi(sub, 2, 1, "run ../" + sub + ".yaml -o out.h5 --batch 50 --resume");
        if (compressed) {
            EXPECT_EQ(again.status, 2) << again.err;
            EXPECT_EQ(count(again.err, "continue it in one process"), 1u) << again.err;
            EXPECT_EQ(pascal_test::slurp(at(sub, "out.h5.partial")), kept);
            again = one(sub, "run ../" + sub + ".yaml -o out.h5 --batch 50 --resume");
        }
        ASSERT_EQ(again.status, 0) << again.err;
        EXPECT_TRUE(
            file_differences(at(sub + "-ref", "out.h5"), at(sub, "out.h5"), kResumed).empty())
            << sub;
    }
}

// One rank killed outright (as the OOM killer would) takes the job down;
// rank 0's journal names the chunks of the windows written before, and
// --resume recovers them and completes the one-process file.
TEST_F(Mpi, AHardKillIsRecoveredFromTheJournal)
{
    for (bool compressed : {false, true}) {
        std::string sub = compressed ? "kill-z" : "kill";
        write(sub + ".yaml", spec_text(compressed ? kDefault : kNone));
        auto ref = one(sub + "-ref", "run ../" + sub + ".yaml -o out.h5 --batch 50");
        ASSERT_EQ(ref.status, 0) << ref.err;
        // Pieces of 10 points, 205 in all, 74 in the first window (8
        // chunks): rank 1 takes nearly all (rank 0 is slowed down), so it
        // writes a window or more before it is killed after its 100th.
        std::string args = "run ../" + sub + ".yaml -o out.h5 --batch 10";
        auto r = in(sub, "timeout 120 " + std::string(kMpirun) +
                             context(1, 1, args, "-x PASCAL_TEST_SLOW_BATCH_MS=20") + " :" +
                             context(1, 1, args, "-x PASCAL_TEST_KILL_AFTER_BATCH=100"));
        ASSERT_NE(r.status, 0);
        ASSERT_TRUE(pascal_test::exists(at(sub, "out.h5.journal"))) << r.err;
        // The recovered file (written in one process, by rank 0) is one
        // that MPI-IO can extend, compressed or not.
        auto again = mpi(sub, 2, 1, args + " --resume");
        ASSERT_EQ(again.status, 0) << again.err;
        std::smatch m;
        ASSERT_TRUE(std::regex_search(again.out, m, std::regex("recovered: (\\d+) rows")))
            << again.out;
        EXPECT_GT(std::stol(m[1]), 0);
        EXPECT_EQ(std::stol(m[1]) % 37, 0) << "whole chunks only";
        EXPECT_TRUE(
            file_differences(at(sub + "-ref", "out.h5"), at(sub, "out.h5"), kResumed).empty())
            << sub;
        EXPECT_EQ(pascal_test::list_dir(dir + "/" + sub),
                  (std::vector<std::string>{"out.h5", "stderr", "stdout"}));
    }
}

// A resume under mpirun killed (rank 0, SIGKILL) as it checks the partial
// file, once the file is journaled, and once every rank opened it for
// writing: the next resume keeps every row of the stopped run and ends with
// the one-process file.  The partial file is opened for writing only once
// journaled; before, a kill in between left a file HDF5 refuses to open.
TEST_F(Mpi, AResumeKilledAtEachMomentLosesNothing)
{
    write("s.yaml", spec_text(kNone));
    auto ref = one("ref", "run ../s.yaml -o out.h5 --batch 50");
    ASSERT_EQ(ref.status, 0) << ref.err;
    for (const char *stage : {"resume-opened", "resume-journaled", "resume-reopened"}) {
        std::string sub = stage, args = "run ../s.yaml -o out.h5 --batch 50";
        // Stopped (Ctrl-C) as its first chunk is recorded: one batch kept.
        auto r = in(sub, "OMP_NUM_THREADS=1 PASCAL_TEST_RAISE_AT=journal-record:INT " +
                             std::string(PASCAL_CLI_HOOKED) + " " + args);
        ASSERT_EQ(r.status, 130) << r.err;
        std::smatch kept;
        ASSERT_TRUE(std::regex_search(r.err, kept, std::regex("stopped: (\\d+) of"))) << r.err;
        auto killed = mpi(sub, 2, 1, args + " --resume",
                          "-x PASCAL_TEST_RAISE_AT=" + std::string(stage) + ":KILL");
        ASSERT_NE(killed.status, 0) << stage;
        auto again = mpi(sub, 2, 1, args + " --resume");
        ASSERT_EQ(again.status, 0) << stage << ": " << again.err;
        // The stop kept every finished row; the ranks, which write whole
        // chunks (37 rows here), continue at the last whole one.
        int64_t stopped = std::stoll(kept[1].str()), whole = stopped - stopped % 37;
        EXPECT_NE(again.out.find("resumed: " + std::to_string(whole) + " rows kept"), std::string::npos)
            << stage << ": " << again.out;
        EXPECT_TRUE(file_differences(at("ref", "out.h5"), at(sub, "out.h5"), kResumed).empty())
            << stage;
        EXPECT_EQ(pascal_test::list_dir(dir + "/" + sub),
                  (std::vector<std::string>{"out.h5", "stderr", "stdout"}));
    }
}

// The claim is rank 0's and holds for the whole job; every refusal is the
// one-process message, printed once, exit 2, nothing created.
TEST_F(Mpi, RefusalsSpeakOnceAndCreateNothing)
{
    write("s.yaml", spec_text(kNone));
    // The output is the spec.
    auto r = mpi("x", 3, 1, "run ../s.yaml -o ../s.yaml");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(count(r.err, "expected a file that is not one of the inputs"), 1u) << r.err;
    EXPECT_EQ(pascal_test::slurp(dir + "/s.yaml"), spec_text(kNone));
    // Bad points in the slices of ranks 1 and 2: the message of one
    // process, which names the first (C = 64).
    write("bad.yaml", "name: bad\nmodels: [ttl]\nfixed: {N: 64, M: 4}\n"
                      "axes:\n  C: {from: 1, to: 100, num: 100}\nrequire: 'C < N'\n");
    auto want = one("x1", "run ../bad.yaml -o out.h5");
    auto got = mpi("x2", 3, 1, "run ../bad.yaml -o out.h5");
    ASSERT_EQ(want.status, 2) << want.err;
    EXPECT_EQ(got.status, 2);
    EXPECT_EQ(count(got.err, want.err), 1u) << got.err;
    EXPECT_FALSE(pascal_test::exists(at("x2", "out.h5")));
    // The one-process pascal under mpirun would run the sweep once per rank.
    r = in("x5", "timeout 120 " + std::string(kMpirun) + " -np 2" + kRankEnv + " " + PASCAL_CLI +
                     " run ../s.yaml -o out.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected one process, got one of 2 ranks of mpirun"),
              std::string::npos) << r.err;
    EXPECT_FALSE(pascal_test::exists(at("x5", "out.h5")));
    // CSV cannot be written by several ranks.
    r = mpi("x3", 2, 1, "run ../s.yaml -o out.csv --format csv");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(count(r.err, "expected an HDF5 output"), 1u) << r.err;
    // An output another pascal is writing (one process, slowed down).
    auto busy = in("x4", std::string("OMP_NUM_THREADS=1 PASCAL_TEST_SLOW_BATCH_MS=100 ") +
                             PASCAL_CLI_HOOKED + " run ../s.yaml -o out.h5 --batch 50 & P=$!; sleep 1; " +
                             mpirun(2, 1, "run ../s.yaml -o out.h5") +
                             "; echo mpirun=$?; kill -INT $P; wait $P");
    EXPECT_NE(busy.out.find("mpirun=2"), std::string::npos) << busy.out << busy.err;
    EXPECT_EQ(count(busy.err, "expected an output no other process is writing"), 1u) << busy.err;
}

} // namespace
