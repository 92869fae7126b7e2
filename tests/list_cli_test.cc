// `pascal list` (one line per model, column, parameter, pattern, device and
// unit, or JSON), shipped devices by name on the command line, and "did you
// mean" for mistyped commands, options, topics, patterns and load paths.
// Facts about the vocabulary come from the README's model table and the
// device profiles' YAML, written here by hand.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/phases.h"
#include "model/workload.h"
#include "vocab/params.h"
#include "test_util.h"

namespace {

using Result = pascal_test::CliResult;
const std::string kSrc = PASCAL_SOURCE_DIR;

class ListCli : public pascal_test::TempDirTest {
protected:
    // `cd dir && pascal ARGS`: what is found relative to the working folder
    // is then only what the test put there.
    Result run_here(const std::string &args)
    {
        return pascal_test::run_command(dir, "cd " + dir + " && " + PASCAL_CLI + " " + args);
    }
};

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

bool has(const std::string &s, const std::string &part)
{
    return s.find(part) != std::string::npos;
}

size_t count(const std::string &s, const std::string &part)
{
    size_t n = 0;
    for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1))
        n++;
    return n;
}

TEST_F(ListCli, TopicsWithoutAnArgument)
{
    Result r = run("list");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    const char *topics[] = {"models", "columns", "axes", "patterns", "devices", "units", "kernels"};
    ASSERT_EQ(l.size(), 7u) << r.out;
    for (int i = 0; i < 7; i++)
        EXPECT_EQ(l[i].rfind(std::string(topics[i]) + " ", 0), 0u) << l[i];
}

// Each kernel a workload can follow, with the library code it was read from.
TEST_F(ListCli, KernelsNameTheirSource)
{
    Result r = run("list kernels");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), (size_t)PASCAL_KERNEL_COUNT) << r.out;
    EXPECT_EQ(l[PASCAL_KERNEL_MODEL].rfind("model ", 0), 0u) << l[0];
    EXPECT_EQ(l[PASCAL_KERNEL_FLASH2].rfind("flash-attn-2    attention: ", 0), 0u) << l[1];
    EXPECT_TRUE(has(l[PASCAL_KERNEL_FLASH2], "Dao-AILab/flash-attention") &&
                has(l[PASCAL_KERNEL_FLASH2], "flash_fwd_launch_template.h") &&
                has(l[PASCAL_KERNEL_FLASH2], "flash_api.cpp")) << l[1];
    // the kinds start in one column, past the longest name
    size_t col = l[0].find_first_not_of(' ', std::string(pascal_kernel_names[0]).size());
    for (int k = 0; k < PASCAL_KERNEL_COUNT; k++) {
        size_t name = std::string(pascal_kernel_names[k]).size();
        EXPECT_EQ(l[k].rfind(std::string(pascal_kernel_names[k]) + " ", 0), 0u) << l[k];
        EXPECT_GT(col, name) << l[k];
        EXPECT_EQ(l[k].find_first_not_of(' ', name), col) << l[k];
    }
}

TEST_F(ListCli, ModelsOneLineEachWithColumnsNeedsAndPaper)
{
    Result r = run("list models");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), (size_t)PASCAL_NMODEL);
    for (int m = 0; m < PASCAL_NMODEL; m++) {
        EXPECT_EQ(l[m].rfind(std::string(pascal_models[m].name) + " ", 0), 0u) << l[m];
        EXPECT_TRUE(has(l[m], std::string("paper: ") + pascal_model_refs[m])) << l[m];
        EXPECT_STRNE(pascal_model_refs[m], "") << pascal_models[m].name << " has no paper reference";
    }
    // README's model table
    EXPECT_TRUE(has(l[PASCAL_MODEL_TTL], "columns D, theta, T_star, K_ttl, rho_ttl;")) << l[0];
    EXPECT_TRUE(has(l[PASCAL_MODEL_TTL], "Theorem 2")) << l[0];
    EXPECT_TRUE(has(l[PASCAL_MODEL_SDCM], "needs assoc;")) << l[PASCAL_MODEL_SDCM];
    EXPECT_TRUE(has(l[PASCAL_MODEL_CATCHUP], "needs alpha, beta, lambda_hit, lambda_miss, depth;"));
    EXPECT_TRUE(has(l[PASCAL_MODEL_RESIDENCY], "Theorem 4"));
}

TEST_F(ListCli, ColumnsWithUnitsModelAndPaper)
{
    Result r = run("list columns");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), (size_t)PASCAL_NCOLUMN);
    for (int k = 0; k < PASCAL_NCOLUMN; k++) {
        EXPECT_EQ(l[k].rfind(std::string(pascal_columns[k].name) + " ", 0), 0u) << l[k];
        EXPECT_STRNE(pascal_column_refs[k], "") << pascal_columns[k].name << " has no paper reference";
    }
    const std::string &klru = l[PASCAL_COL_K_LRU];
    EXPECT_TRUE(has(klru, " misses/round ") && has(klru, "(model lru)") && has(klru, "paper: eq. 15")) << klru;
    EXPECT_TRUE(has(l[PASCAL_COL_RHO_BOUND], "misses/request") && has(l[PASCAL_COL_RHO_BOUND], "Theorem 4"));
}

// The discovery tables run parallel to the vocabulary: an id added without
// its entry is a null pointer there (which `list` would print as text).
TEST(ListTables, EveryIdHasItsEntries)
{
    for (int p = 0; p < PASCAL_NPARAM; p++) {
        EXPECT_NE(pascal_param_refs[p], nullptr) << pascal_params[p].name;
        EXPECT_NE(pascal_param_defaults[p], nullptr) << pascal_params[p].name;
    }
    for (int m = 0; m < PASCAL_NMODEL; m++)
        EXPECT_NE(pascal_model_refs[m], nullptr) << pascal_models[m].name;
    for (int k = 0; k < PASCAL_NCOLUMN; k++) {
        EXPECT_NE(pascal_column_refs[k], nullptr) << pascal_columns[k].name;
        EXPECT_NE(pascal_columns[k].name, nullptr) << k;
        EXPECT_NE(pascal_columns[k].description, nullptr) << pascal_columns[k].name;
    }
}

TEST_F(ListCli, AxesWithUnitsTypesAndDefaults)
{
    Result r = run("list axes");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), (size_t)PASCAL_NPARAM);
    for (int p = 0; p < PASCAL_NPARAM; p++)
        EXPECT_EQ(l[p].rfind(std::string(pascal_params[p].name) + " ", 0), 0u) << l[p];
    // sweeps/spec_point.c and engine/eval_phases.c defaults; SPEC.md's value types
    EXPECT_TRUE(has(l[PASCAL_P_PATTERN], "default: aligned")) << l[PASCAL_P_PATTERN];
    EXPECT_TRUE(has(l[PASCAL_P_LAG], "default: 1")) << l[PASCAL_P_LAG];
    EXPECT_TRUE(has(l[PASCAL_P_ROUNDS], "default: 6 N")) << l[PASCAL_P_ROUNDS];
    EXPECT_TRUE(has(l[PASCAL_P_HORIZON], "default: 0 (long run)")) << l[PASCAL_P_HORIZON];
    EXPECT_TRUE(has(l[PASCAL_P_CAPACITY_BYTES], " bytes ") && has(l[PASCAL_P_CAPACITY_BYTES], "size > 0") &&
                has(l[PASCAL_P_CAPACITY_BYTES], "effective_l2_bytes"))
        << l[PASCAL_P_CAPACITY_BYTES];
    EXPECT_TRUE(has(l[PASCAL_P_SPREAD], "integer >= 0")) << l[PASCAL_P_SPREAD];
    EXPECT_TRUE(has(l[PASCAL_P_EPS], "paper: Prop. 7")) << l[PASCAL_P_EPS];
    // a named value is a name, only the load path a load path
    EXPECT_TRUE(has(l[PASCAL_P_PATH], "; load path;")) << l[PASCAL_P_PATH];
    for (int p : {PASCAL_P_DTYPE, PASCAL_P_CAUSAL, PASCAL_P_RASTER}) {
        EXPECT_FALSE(has(l[p], "load path")) << l[p];
        EXPECT_TRUE(has(l[p], "; one of those names;")) << l[p];
    }
}

TEST_F(ListCli, PatternsWithTheirParameters)
{
    Result r = run("list patterns");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), (size_t)PASCAL_PATTERN_COUNT);
    EXPECT_EQ(l[PASCAL_PATTERN_GAUSSIAN].rfind("gaussian ", 0), 0u);
    EXPECT_TRUE(has(l[PASCAL_PATTERN_GAUSSIAN], "parameters: sigma, seed")) << l[PASCAL_PATTERN_GAUSSIAN];
    EXPECT_TRUE(has(l[PASCAL_PATTERN_CLUSTERS], "parameters: clusters, spread"));
    EXPECT_TRUE(has(l[PASCAL_PATTERN_ALIGNED], "parameters: none"));
    EXPECT_TRUE(has(l[PASCAL_PATTERN_EQUAL], "floor(m N / M)"));
}

// configs/devices/*.yaml, read by eye.
TEST_F(ListCli, ShippedDevicesWithKeyFigures)
{
    Result r = run_here("list devices");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> l = lines(r.out);
    ASSERT_EQ(l.size(), 4u) << r.out;
    EXPECT_EQ(l[0], "gb10     NVIDIA GB10: 48 SMs, L2 24MiB, effective L2 20MiB, compute capability 12.1, "
                    "up to 32 CTAs and 228 KiB of shared memory per SM (" + kSrc +
                        "/configs/devices/gb10.yaml)");
    EXPECT_EQ(l[1].rfind("h100     NVIDIA H100: 132 SMs, L2 50MiB, effective L2 not measured,", 0), 0u) << l[1];
    EXPECT_EQ(l[2].rfind("h200     NVIDIA H200: 132 SMs, L2 60MiB,", 0), 0u) << l[2];
    EXPECT_EQ(l[3].rfind("h200-2x-sms-hypothetical H200 with twice the SMs (hypothetical): 264 SMs, "
                         "L2 60MiB,", 0), 0u) << l[3];
    // one beside the working folder comes first and hides nothing else
    std::filesystem::create_directories(dir + "/configs/devices");
    write("configs/devices/lab.yaml", "name: Lab card\nsms: 6\nl2_bytes: 2MiB\n");
    r = run_here("list devices");
    l = lines(r.out);
    ASSERT_EQ(l.size(), 5u) << r.out;
    EXPECT_EQ(l[0], "lab      Lab card: 6 SMs, L2 2MiB, effective L2 not measured, compute capability - "
                    "(configs/devices/lab.yaml)");
}

TEST_F(ListCli, UnitsCoverEveryParameterAndColumn)
{
    std::set<std::string> known;
    pascal_unit_info u;
    for (int i = 0; pascal_unit(i, &u) == 0; i++)
        known.insert(u.name);
    for (int p = 0; p < PASCAL_NPARAM; p++)
        EXPECT_TRUE(known.count(pascal_params[p].units)) << pascal_params[p].name << ": " << pascal_params[p].units;
    for (int k = 0; k < PASCAL_NCOLUMN; k++)
        EXPECT_TRUE(known.count(pascal_columns[k].units)) << pascal_columns[k].name << ": " << pascal_columns[k].units;
    Result r = run("list units");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(r.out, "\nmisses/round    fills (misses) per round of M requests, K; used by ")) << r.out;
    EXPECT_TRUE(has(r.out, "\nKiB             size suffix: 1024 bytes\n")) << r.out;
    EXPECT_TRUE(has(r.out, "\nGB              size suffix: 1000000000 bytes\n")) << r.out;
}

TEST_F(ListCli, JsonHasOneObjectPerLine)
{
    struct {
        const char *topic;
        size_t n;
    } cases[] = {{"models", PASCAL_NMODEL},   {"columns", PASCAL_NCOLUMN},
                 {"axes", PASCAL_NPARAM},     {"patterns", PASCAL_PATTERN_COUNT},
                 {"kernels", PASCAL_KERNEL_COUNT}, {"", 7}};
    for (const auto &c : cases) {
        Result r = run(std::string("list ") + c.topic + " --json");
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.out.front(), '[');
        EXPECT_EQ(r.out.substr(r.out.size() - 2), "]\n");
        EXPECT_EQ(count(r.out, "{\"name\": "), c.n) << c.topic;
        EXPECT_EQ(count(r.out, "{"), count(r.out, "}")) << c.topic;
    }
    Result r = run_here("list devices --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(r.out, "[{\"name\": \"gb10\", \"title\": \"NVIDIA GB10\", \"path\": \"" + kSrc +
                               "/configs/devices/gb10.yaml\", \"sms\": 48, \"l2_bytes\": 25165824, "
                               "\"effective_l2_bytes\": 20971520, \"compute_capability\": \"12.1\", "))
        << r.out;
    EXPECT_TRUE(has(r.out, "\"effective_l2_bytes\": null")) << "h100 has no measured size";
    r = run("list models --json");
    EXPECT_TRUE(has(r.out, "{\"name\": \"sdcm\", \"description\": \"SDCM (eq. 6), A ways, B = C lines\", "
                           "\"paper\": \"eq. 6\", \"columns\": [\"K_sdcm\", \"rho_sdcm\"], \"needs\": [\"assoc\"]}"))
        << r.out;
}

TEST_F(ListCli, MistypedNamesOnTheCommandLine)
{
    Result r = run("list modles");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal list: expected a topic (models, columns, axes, patterns, devices, units, "
                     "kernels), got \"modles\" (did you mean 'models'?)\n");
    r = run("lsit models");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal: unknown command \"lsit\" (did you mean 'list'?); commands: run point", 0), 0u)
        << r.err;
    r = run("run spec.yaml -o x.h5 --quite");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal run: unknown option --quite (did you mean 'quiet'?)\n", 0), 0u) << r.err;
    r = run("point --N 64 --C 8 --M 4 --pattern clusterz");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, "got \"clusterz\" (did you mean 'clusters'?)\n")) << r.err;
    r = run("point --N 64 --C 8 --M 4 --pattern explict");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, "got \"explict\"\n")) << "explicit is --phases, not offered: " << r.err;
    r = run("predict --model m.h5 --o 1 --path tmaa --d 2 --m 0 --N 4096 --W 8");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal predict: --path: expected sync or tma, got \"tmaa\" (did you mean 'tma'?)\n");
    EXPECT_TRUE(pascal_test::list_dir(dir) == std::vector<std::string>({"stderr", "stdout"}));
}

TEST_F(ListCli, DeviceNamesOnTheCommandLine)
{
    const std::string refs = kSrc + "/configs/calibration/synthetic-gb10-refs.csv";
    Result by_name = run_here("calibrate " + refs + " --device gb10 -o a.h5");
    ASSERT_EQ(by_name.status, 0) << by_name.err;
    EXPECT_TRUE(has(by_name.out, "device NVIDIA GB10: sms 48, C 1280 blocks of 16KiB")) << by_name.out;
    Result by_path = run_here("calibrate " + refs + " --device " + kSrc + "/configs/devices/gb10.yaml -o b.h5");
    ASSERT_EQ(by_path.status, 0) << by_path.err;
    // the same fit: same device line, same cross-validation error and band
    for (const char *key : {"  device ", "PASCAL MAPE ", "  band: "}) {
        size_t a = by_name.out.find(key), b = by_path.out.find(key);
        ASSERT_NE(a, std::string::npos) << key << by_name.out;
        ASSERT_NE(b, std::string::npos) << key << by_path.out;
        EXPECT_EQ(by_name.out.substr(a, by_name.out.find_first_of(",\n", a + 10) - a),
                  by_path.out.substr(b, by_path.out.find_first_of(",\n", b + 10) - b));
    }
    Result r = run_here("calibrate " + refs + " --device gb11 -o c.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, "got \"gb11\" (did you mean 'gb10'?)")) << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/c.h5"));
    // a spec naming a shipped device from any folder
    write("s.yaml", "name: s\ndevice: h200\nmodels: [che]\nfixed: {N: 8192, block_bytes: 16KiB, occupancy: 1}\n"
                    "axes: {seed: [1]}\n");
    r = run_here("run s.yaml -o s.csv --format csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    // h200: M = 132 SMs x 1, C = 60 MiB / 16 KiB = 3840 blocks, rho_che = 1 - 3840/8192
    EXPECT_EQ(pascal_test::slurp(dir + "/s.csv"), "seed,N,M,C,rho_che,K_che\n1,8192,132,3840,0.53125,70.125\n");
}

} // namespace
