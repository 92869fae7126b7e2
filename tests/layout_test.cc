// The structure DESIGN.md describes, checked on the sources themselves, so
// that a change that breaks it fails here rather than in an embedding
// program.  A room is a folder (output/fs and engine/mpi are rooms of their
// own); its includes may reach only the rooms below it:
//   common, model  <-  vocab  <-  devices  <-  sweeps
//   common  <-  output/fs  <-  output
//   calibrate (over vocab, devices, output)  <-  engine  <-  engine/mpi
//   validate, spot, info, report over the core; kernels/ over common only
//   (spot/ may read kernels/measure.h, the device-side types); programs/
//   reaches everything.
// And:
//   - common/ and model/ (libpascal_model) include no third-party header;
//   - HDF5 is reached only in output/, libyaml only in vocab/, devices/ and
//     sweeps/, MPI only in *_mpi.c files, engine/mpi/ and programs/;
//   - one OpenMP team launch, in engine/parallel.c;
//   - the libraries never print, exit or abort;
//   - load path names are spelled only in the table (vocab/params.c).
// Comments and string literals are blanked before the code is searched
// (include lines are read first).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;

struct Source {
    std::string rel;              // path from the source root
    std::string folder;           // "engine", "programs", "kernels", ...
    std::vector<std::string> includes; // quoted includes
    std::vector<std::string> system_includes;
    std::string code;             // comments and string literals blanked
};

// Blanks comments and the contents of string and character literals.
std::string strip(const std::string &s)
{
    std::string out = s;
    enum { CODE, LINE, BLOCK, STR, CHR } st = CODE;
    for (size_t i = 0; i < s.size(); i++) {
        char c = s[i], n = i + 1 < s.size() ? s[i + 1] : 0;
        switch (st) {
        case CODE:
            if (c == '/' && n == '/')
                st = LINE, out[i] = ' ';
            else if (c == '/' && n == '*')
                st = BLOCK, out[i] = ' ';
            else if (c == '"')
                st = STR;
            else if (c == '\'')
                st = CHR;
            break;
        case LINE:
            if (c == '\n')
                st = CODE;
            else
                out[i] = ' ';
            break;
        case BLOCK:
            if (c == '*' && n == '/') {
                out[i] = out[i + 1] = ' ';
                i++;
                st = CODE;
            } else if (c != '\n')
                out[i] = ' ';
            break;
        case STR:
        case CHR:
            if (c == '\\') {
                out[i] = ' ';
                if (i + 1 < s.size())
                    out[++i] = ' ';
            } else if (c == (st == STR ? '"' : '\''))
                st = CODE;
            else if (c != '\n')
                out[i] = ' ';
            break;
        }
    }
    return out;
}

std::vector<Source> sources()
{
    static const std::set<std::string> exts = {".c", ".h", ".cu", ".cuh", ".cpp"};
    static const std::regex quoted(R"(^\s*#\s*include\s*"([^"]+)\")"),
        angled(R"(^\s*#\s*include\s*<([^>]+)>)");
    std::vector<Source> out;
    const fs::path root = PASCAL_SOURCE_DIR;
    for (const char *top : {"include", "common", "model", "vocab", "devices", "sweeps", "output",
                            "calibrate", "engine", "validate", "spot", "info", "report", "kernels",
                            "programs"}) {
        for (const auto &e : fs::recursive_directory_iterator(root / top)) {
            if (!e.is_regular_file() || !exts.count(e.path().extension().string()))
                continue;
            Source s;
            s.rel = fs::relative(e.path(), root).generic_string();
            s.folder = fs::relative(e.path().parent_path(), root).generic_string();
            std::string text = pascal_test::slurp(e.path().string());
            std::istringstream lines(text);
            std::string line;
            std::smatch m;
            while (std::getline(lines, line)) {
                if (std::regex_search(line, m, quoted))
                    s.includes.push_back(m[1]);
                else if (std::regex_search(line, m, angled))
                    s.system_includes.push_back(m[1]);
            }
            s.code = strip(text);
            out.push_back(s);
        }
    }
    return out;
}

bool is_cli(const Source &s)
{
    return s.folder == "programs";
}

// The room of a path: its first folder, or its first two where the second
// is a room of its own ("output/fs/lock.h" -> "output/fs").
std::string room_of(const std::string &path)
{
    for (const char *sub : {"output/fs/", "engine/mpi/"})
        if (path.rfind(sub, 0) == 0)
            return std::string(sub, std::strlen(sub) - 1);
    size_t slash = path.find('/');
    return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string top_of(const std::string &inc)
{
    size_t slash = inc.find('/');
    return slash == std::string::npos ? "" : inc.substr(0, slash);
}

TEST(Layout, IncludeArrowsRunOneWay)
{
    const std::set<std::string> core = {"common", "model", "vocab", "devices", "sweeps",
                                        "output", "output/fs", "calibrate", "engine"};
    // "pascal" is the public API (include/pascal/): below every room.
    const std::map<std::string, std::set<std::string>> allowed = {
        {"include", {"pascal"}},
        {"common", {"common"}},
        {"model", {"model"}},
        {"vocab", {"common", "model", "vocab"}},
        {"devices", {"common", "model", "vocab", "devices"}},
        {"sweeps", {"common", "model", "vocab", "devices", "sweeps"}},
        {"output/fs", {"common", "output/fs"}},
        {"output", {"common", "output/fs", "output"}},
        {"calibrate", {"common", "model", "vocab", "devices", "output/fs", "output", "calibrate"}},
        {"engine", core},
        {"engine/mpi", {"common", "model", "vocab", "devices", "sweeps", "output", "output/fs",
                        "calibrate", "engine", "engine/mpi"}},
        {"validate", {"common", "model", "vocab", "engine", "output", "output/fs", "validate"}},
        {"spot", {"common", "model", "vocab", "devices", "sweeps", "engine", "output", "output/fs",
                  "spot"}},
        {"info", {"common", "model", "vocab", "sweeps", "calibrate", "output", "output/fs", "info"}},
        {"report", {"common", "model", "vocab", "sweeps", "output", "output/fs", "report"}},
        {"kernels", {"common", "kernels", "pascal"}},
    };
    std::vector<Source> all = sources();
    ASSERT_GT(all.size(), 100u);
    for (const Source &s : all) {
        if (is_cli(s))
            continue;
        const std::string from = room_of(s.rel);
        ASSERT_TRUE(allowed.count(from)) << s.rel << " is in no room this test knows";
        for (const std::string &inc : s.includes) {
            if (top_of(inc).empty()) // a file beside this one, or a generated one
                continue;
            if (top_of(inc) == "pascal" && from != "kernels")
                continue;
            // The spot-check driver reads the measurement types, nothing else of kernels/.
            if (from == "spot" && inc == "kernels/measure.h")
                continue;
            EXPECT_TRUE(allowed.at(from).count(room_of(inc))) << s.rel << " includes " << inc;
        }
    }
}

TEST(Layout, ModelLibraryHasNoThirdPartyHeader)
{
    // libpascal_model (common/ and model/) links nothing but libc and libm.
    static const std::set<std::string> standard = {
        "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h", "stdarg.h",
        "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h",
        "sys/stat.h"};
    for (const Source &s : sources()) {
        const std::string room = room_of(s.rel);
        if (room != "common" && room != "model")
            continue;
        if (s.rel.find("_mpi.") != std::string::npos) // pascal-mpi's error helper
            continue;
        for (const std::string &inc : s.system_includes)
            EXPECT_TRUE(standard.count(inc)) << s.rel << " includes <" << inc << ">";
    }
}

TEST(Layout, PublicHeadersIncludeOnlyThePublicApi)
{
    static const std::set<std::string> standard = {"stddef.h", "stdint.h"};
    int headers = 0;
    for (const Source &s : sources()) {
        if (room_of(s.rel) != "include")
            continue;
        headers++;
        for (const std::string &inc : s.includes)
            EXPECT_EQ(inc.rfind("pascal/", 0), 0u) << s.rel << " includes " << inc;
        for (const std::string &inc : s.system_includes)
            EXPECT_TRUE(standard.count(inc)) << s.rel << " includes <" << inc << ">";
    }
    EXPECT_GE(headers, 6);
}

// Process-wide state is the program's: only programs/ installs signal
// handlers or changes signal masks, and only its test hooks read the
// PASCAL_TEST_* variables (compiled into build/tests/pascal-hooked alone).
TEST(Layout, OnlyTheProgramHandlesSignalsAndTestHooks)
{
    static const std::regex handler(R"(\b(signal|sigaction|pthread_sigmask|sigprocmask|pause)\s*\()");
    for (const Source &s : sources()) {
        std::string raw = pascal_test::slurp(std::string(PASCAL_SOURCE_DIR) + "/" + s.rel);
        if (!is_cli(s))
            EXPECT_FALSE(std::regex_search(s.code, handler)) << s.rel << " handles signals";
        if (s.rel != "programs/testhooks.c")
            EXPECT_EQ(raw.find("\"PASCAL_TEST_"), std::string::npos) << s.rel << " reads a test hook";
    }
}

TEST(Layout, LibYamlAndMpiStayInTheirRooms)
{
    for (const Source &s : sources()) {
        const std::string room = room_of(s.rel);
        const bool mpi_file = s.rel.find("_mpi.") != std::string::npos || room == "engine/mpi";
        for (const std::string &inc : s.system_includes) {
            if (inc == "yaml.h")
                EXPECT_TRUE(room == "vocab" || room == "devices" || room == "sweeps")
                    << s.rel << " includes <yaml.h>";
            if (inc == "mpi.h")
                EXPECT_TRUE(mpi_file) << s.rel << " includes <mpi.h>";
        }
    }
}

TEST(Layout, Hdf5OnlyThroughOutput)
{
    static const std::regex call(R"(\bH5[A-Z][A-Za-z0-9_]*\s*\()"), type(R"(\b(hid_t|herr_t|hsize_t)\b)");
    for (const Source &s : sources()) {
        if (room_of(s.rel) == "output")
            continue;
        for (const std::string &inc : s.system_includes)
            EXPECT_EQ(inc.rfind("hdf5", 0), std::string::npos) << s.rel << " includes <" << inc << ">";
        EXPECT_FALSE(std::regex_search(s.code, call)) << s.rel << " calls HDF5";
        EXPECT_FALSE(std::regex_search(s.code, type)) << s.rel << " uses HDF5 types";
    }
}

TEST(Layout, OneOpenMpLaunch)
{
    static const std::regex launch(R"(#\s*pragma\s+omp\s+parallel\b)"),
        runtime(R"(\bomp_(set|get)_[a-z_]+\s*\()");
    int launches = 0;
    for (const Source &s : sources()) {
        bool here = s.rel == "engine/parallel.c";
        auto begin = std::sregex_iterator(s.code.begin(), s.code.end(), launch);
        int n = (int)std::distance(begin, std::sregex_iterator());
        launches += n;
        if (!here) {
            EXPECT_EQ(n, 0) << s.rel << " starts an OpenMP team";
            EXPECT_FALSE(std::regex_search(s.code, runtime)) << s.rel << " calls the OpenMP runtime";
            for (const std::string &inc : s.system_includes)
                EXPECT_NE(inc, "omp.h") << s.rel;
        }
    }
    EXPECT_EQ(launches, 1);
}

TEST(Layout, LibrariesNeverPrintExitOrAbort)
{
    static const std::regex print(R"((^|[^A-Za-z0-9_])(printf|puts|putchar|perror|exit|abort|_Exit)\s*\()"),
        stdio_streams(R"(\bstd(err|out)\b)");
    // Only the CSV sink writes rows to stdout (`-o -`).
    static const std::set<std::string> stdout_ok = {"output/sink.c", "output/csv_sink.c"};
    for (const Source &s : sources()) {
        // The CUDA runner is checked by its own tests; report/tools is a build tool.
        if (is_cli(s) || s.folder == "kernels/cuda" || s.folder == "report/tools")
            continue;
        EXPECT_FALSE(std::regex_search(s.code, print)) << s.rel << " prints or ends the process";
        std::smatch m;
        if (std::regex_search(s.code, m, stdio_streams))
            EXPECT_TRUE(m[1] == "out" && stdout_ok.count(s.rel)) << s.rel << " uses std" << m[1];
    }
}

TEST(Layout, LoadPathNamesOnlyInTheTable)
{
    // Literals are blanked in `code`, so search the raw text of each line
    // that is not a comment for a quoted path name.
    static const std::regex literal(R"re("(sync|tma)")re");
    for (const Source &s : sources()) {
        std::string raw = pascal_test::slurp(std::string(PASCAL_SOURCE_DIR) + "/" + s.rel);
        std::istringstream lines(raw), code(s.code);
        std::string line, stripped;
        int n = 0;
        while (std::getline(lines, line) && std::getline(code, stripped)) {
            n++;
            if (stripped.find_first_not_of(" \t") == std::string::npos)
                continue; // a comment line
            if (std::regex_search(line, literal))
                EXPECT_EQ(s.rel, "vocab/params.c") << s.rel << ":" << n << ": " << line;
        }
    }
}

} // namespace
