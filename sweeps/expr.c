/* where/require expressions: a recursive-descent parser that emits a postfix
 * program, and a stack evaluator for it.  See expr.h for the grammar.  The
 * parser tracks the deepest operand stack the program can reach and rejects
 * programs deeper than PASCAL_EXPR_STACK, so pascal_expr_eval runs on a fixed
 * array and never allocates. */
#include "sweeps/expr.h"

#include "model/phases.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "sweeps/spec.h"
#include "vocab/params.h"


/* Nesting of parentheses and unary operators the parser will recurse into. */
#define MAX_NESTING 64

enum op {
    OP_CONST, OP_PARAM, OP_NEG, OP_NOT,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR
};

typedef struct instr {
    int op;
    int param;    /* OP_PARAM */
    double value; /* OP_CONST */
} instr;

struct pascal_expr {
    instr *code;
    int n, cap;
    int depth, max_depth;
    uint64_t params;
};

enum tok {
    T_END, T_NUM, T_IDENT, T_STRING, T_LPAREN, T_RPAREN,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT, T_NOT,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR
};

/* What a subexpression is, for the rule that quoted names only compare
 * with an enum-valued parameter (`pattern`, `path`). */
enum tag { TAG_NUM, TAG_ENUM, TAG_STRING };

typedef struct operand {
    int tag;
    size_t pos;  /* where it starts in the text */
    size_t len;  /* TAG_STRING: its length with the quotes */
    int code;    /* TAG_STRING: index of its placeholder constant */
    int param;   /* TAG_ENUM: the parameter */
} operand;

typedef struct parser {
    const char *text;
    size_t pos;          /* next character to lex */
    int tok;             /* current token */
    size_t start, len;   /* its span in text */
    double num;          /* T_NUM */
    int param;           /* T_IDENT */
    int nesting;
    pascal_expr *e;
    pascal_error *err;
    size_t err_offset;
    int failed;
    const pascal_spec *spec;   /* the names it gives values (a device axis), or NULL */
} parser;

static void describe_token(const parser *ps, char *buf, size_t len)
{
    if (ps->tok == T_END)
        snprintf(buf, len, "the end of the expression");
    else
        snprintf(buf, len, "\"%.*s\"", (int)(ps->len > 40 ? 40 : ps->len), ps->text + ps->start);
}

static int fail_at(parser *ps, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(parser *ps, size_t pos, const char *fmt, ...)
{
    va_list ap;
    if (ps->failed)
        return -1;
    ps->failed = 1;
    ps->err_offset = pos;
    va_start(ap, fmt);
    pascal_error_vset(ps->err, PASCAL_EINPUT, fmt, ap);
    va_end(ap);
    return -1;
}

/* "expected <what>, got <current token>" */
static int fail_expected(parser *ps, const char *what)
{
    char got[64];
    describe_token(ps, got, sizeof got);
    return fail_at(ps, ps->start, "expected %s, got %s", what, got);
}

static int lex_number(parser *ps)
{
    const char *t = ps->text;
    size_t p = ps->pos, q;
    char buf[96];
    int rc;
    while (isdigit((unsigned char)t[p]))
        p++;
    if (t[p] == '.') {
        p++;
        while (isdigit((unsigned char)t[p]))
            p++;
    }
    if ((t[p] == 'e' || t[p] == 'E') &&
        (isdigit((unsigned char)t[p + 1]) ||
         ((t[p + 1] == '+' || t[p + 1] == '-') && isdigit((unsigned char)t[p + 2])))) {
        p += 2;
        while (isdigit((unsigned char)t[p]))
            p++;
    }
    q = p;
    while (isalnum((unsigned char)t[q]) || t[q] == '_' || t[q] == '.')
        q++;
    ps->tok = T_NUM;
    ps->len = q - ps->start;
    ps->pos = q;
    if (ps->len >= sizeof buf || (ps->len == 1 && t[ps->start] == '.'))
        return fail_at(ps, ps->start, "expected a number, got \"%.*s\"", (int)(ps->len > 40 ? 40 : ps->len),
                       t + ps->start);
    memcpy(buf, t + ps->start, ps->len);
    buf[ps->len] = '\0';
    if (q == p) {
        ps->num = strtod(buf, NULL);
        if (!isfinite(ps->num))
            return fail_at(ps, ps->start, "expected a finite number, got \"%s\"", buf);
        return 0;
    }
    if ((rc = pascal_size_parse(buf, &ps->num)) != 0) {
        char why[160];
        pascal_size_explain(rc, buf, why, sizeof why);
        return fail_at(ps, ps->start, "expected a number or a size like 20MiB, got \"%s\"%s%s", buf,
                       why[0] ? ": " : "", why);
    }
    return 0;
}

static int lex_ident(parser *ps)
{
    const char *t = ps->text;
    size_t p = ps->pos;
    char buf[64];
    while (isalnum((unsigned char)t[p]) || t[p] == '_')
        p++;
    ps->tok = T_IDENT;
    ps->len = p - ps->start;
    ps->pos = p;
    if (ps->len < sizeof buf) {
        memcpy(buf, t + ps->start, ps->len);
        buf[ps->len] = '\0';
        ps->param = pascal_param_from_name(buf);
    } else {
        ps->param = -1;
    }
    if (ps->param < 0) {
        char names[512], hint[96];
        const char *valid[PASCAL_NPARAM];
        size_t off = 0;
        for (int i = 0; i < PASCAL_NPARAM && off < sizeof names; i++)
            off += (size_t)snprintf(names + off, sizeof names - off, "%s%s", i ? ", " : "",
                                    pascal_params[i].name);
        for (int i = 0; i < PASCAL_NPARAM; i++)
            valid[i] = pascal_params[i].name;
        hint[0] = '\0';
        if (ps->len < sizeof buf)
            pascal_suggest_hint(buf, valid, PASCAL_NPARAM, hint, sizeof hint);
        return fail_at(ps, ps->start, "expected a parameter name (%s), got \"%.*s\"%s", names,
                       (int)(ps->len > 40 ? 40 : ps->len), t + ps->start, hint);
    }
    return 0;
}

static int lex_string(parser *ps)
{
    const char *t = ps->text;
    size_t p = ps->pos; /* after the opening quote */
    while (t[p] && t[p] != '"')
        p++;
    if (!t[p])
        return fail_at(ps, ps->start, "expected a closing '\"' for this string, got the end of the expression");
    ps->tok = T_STRING;
    ps->len = p + 1 - ps->start;
    ps->pos = p + 1;
    return 0;
}

/* A quoted name compared with an enum-valued parameter becomes its code:
 * pattern names for `pattern`, load paths for `path`, a named parameter's
 * labels for it.  The constant was emitted as a placeholder when the
 * string was read; patch it now. */
static int resolve_name(parser *ps, operand name, int param)
{
    int n;
    const char *const *names = ps->spec ? pascal_spec_param_labels(ps->spec, param, &n)
                                         : pascal_param_labels(param, &n);
    const char *s = ps->text + name.pos + 1;
    size_t len = name.len - 2;
    char typed[64], hint[96];
    for (int k = 0; k < n; k++)
        if (strlen(names[k]) == len && memcmp(names[k], s, len) == 0) {
            ps->e->code[name.code].value = k;
            return 0;
        }
    snprintf(typed, sizeof typed, "%.*s", (int)(len < sizeof typed ? len : sizeof typed - 1), s);
    pascal_suggest_hint(typed, names, n, hint, sizeof hint);
    if (param == PASCAL_P_PATTERN)
        return fail_at(ps, name.pos + 1,
                       "expected a pattern name (aligned, clusters, equal, uniform, gaussian, lag, "
                       "explicit), got \"%.*s\"%s", (int)(len > 40 ? 40 : len), s, hint);
    if (param == PASCAL_P_DEVICE) {   /* the spec's own names */
        char list[512];
        size_t off = 0;
        list[0] = '\0';
        for (int k = 0; k < n && off < sizeof list; k++)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", k ? ", " : "", names[k]);
        return fail_at(ps, name.pos + 1, "expected a device of the spec's device axis (%s), got \"%.*s\"%s",
                       n ? list : "none: the spec has no device axis", (int)(len > 40 ? 40 : len), s, hint);
    }
    if (pascal_params[param].type == PASCAL_T_NAME)
        return fail_at(ps, name.pos + 1, "expected a name of %s (%s), got \"%.*s\"%s",
                       pascal_params[param].name, pascal_params[param].description,
                       (int)(len > 40 ? 40 : len), s, hint);
    return fail_at(ps, name.pos + 1, "expected a load path name (" PASCAL_PATH_LIST "), got \"%.*s\"%s",
                   (int)(len > 40 ? 40 : len), s, hint);
}

static int next(parser *ps)
{
    static const struct {
        const char *text;
        int tok;
    } ops[] = {
        {"<=", T_LE}, {">=", T_GE}, {"==", T_EQ}, {"!=", T_NE}, {"&&", T_AND}, {"||", T_OR},
        {"<", T_LT}, {">", T_GT}, {"!", T_NOT}, {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR},
        {"/", T_SLASH}, {"%", T_PCT}, {"(", T_LPAREN}, {")", T_RPAREN},
    };
    const char *t = ps->text;
    char c;
    while (isspace((unsigned char)t[ps->pos]))
        ps->pos++;
    ps->start = ps->pos;
    c = t[ps->pos];
    if (!c) {
        ps->tok = T_END;
        ps->len = 0;
        return 0;
    }
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)t[ps->pos + 1])))
        return lex_number(ps);
    if (isalpha((unsigned char)c) || c == '_')
        return lex_ident(ps);
    if (c == '"') {
        ps->pos++;
        return lex_string(ps);
    }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].text);
        if (strncmp(t + ps->pos, ops[i].text, n) == 0) {
            ps->tok = ops[i].tok;
            ps->len = n;
            ps->pos += n;
            return 0;
        }
    }
    ps->len = 1;
    if (c == '&' || c == '|')
        return fail_at(ps, ps->start, "expected \"%c%c\", got \"%c\"", c, c, c);
    if (c == '=')
        return fail_at(ps, ps->start, "expected \"==\", got \"=\"");
    if (isprint((unsigned char)c))
        return fail_at(ps, ps->start, "expected a number, a parameter, an operator or a parenthesis, got \"%c\"", c);
    return fail_at(ps, ps->start,
                   "expected a number, a parameter, an operator or a parenthesis, got byte 0x%02x",
                   (unsigned char)c);
}

static int emit(parser *ps, int op, int param, double value)
{
    pascal_expr *e = ps->e;
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 16;
        instr *code = realloc(e->code, (size_t)cap * sizeof *code);
        if (!code) {
            ps->failed = 1;
            pascal_error_set(ps->err, PASCAL_ENOMEM, "out of memory compiling an expression");
            return -1;
        }
        e->code = code;
        e->cap = cap;
    }
    e->code[e->n].op = op;
    e->code[e->n].param = param;
    e->code[e->n].value = value;
    e->n++;
    if (op == OP_CONST || op == OP_PARAM)
        e->depth++;
    else if (op != OP_NEG && op != OP_NOT)
        e->depth--;
    if (e->depth > e->max_depth)
        e->max_depth = e->depth;
    if (e->max_depth > PASCAL_EXPR_STACK)
        return fail_at(ps, ps->start, "expected a simpler expression (at most %d pending operands), got a deeper one",
                       PASCAL_EXPR_STACK);
    return 0;
}

/* Pattern names are only meaningful against `pattern`; anywhere else a
 * string is an error. */
static int need_number(parser *ps, operand x)
{
    if (x.tag != TAG_STRING)
        return 0;
    return fail_at(ps, x.pos, "expected a number, got a quoted name (write pattern == \"clusters\" "
                              "or path == \"tma\")");
}

static int parse_or(parser *ps, operand *out);

static int parse_primary(parser *ps, operand *out)
{
    out->pos = ps->start;
    out->tag = TAG_NUM;
    switch (ps->tok) {
    case T_NUM:
        if (emit(ps, OP_CONST, 0, ps->num))
            return -1;
        return next(ps);
    case T_STRING:
        out->tag = TAG_STRING;
        out->len = ps->len;
        out->code = ps->e->n;
        if (emit(ps, OP_CONST, 0, NAN))
            return -1;
        return next(ps);
    case T_IDENT:
        if (ps->param == PASCAL_P_PATTERN || ps->param == PASCAL_P_PATH ||
            pascal_params[ps->param].type == PASCAL_T_NAME) {
            out->tag = TAG_ENUM;
            out->param = ps->param;
        }
        ps->e->params |= (uint64_t)1 << ps->param;
        if (emit(ps, OP_PARAM, ps->param, 0))
            return -1;
        return next(ps);
    case T_LPAREN:
        if (++ps->nesting > MAX_NESTING)
            return fail_at(ps, ps->start, "expected at most %d nested parentheses, got more", MAX_NESTING);
        if (next(ps) || parse_or(ps, out))
            return -1;
        if (ps->tok != T_RPAREN)
            return fail_expected(ps, "\")\" or an operator");
        ps->nesting--;
        return next(ps);
    default:
        return fail_expected(ps, "a number, a parameter, a name in quotes or \"(\"");
    }
}

static int parse_unary(parser *ps, operand *out)
{
    int tok = ps->tok;
    size_t pos = ps->start;
    if (tok != T_MINUS && tok != T_PLUS && tok != T_NOT)
        return parse_primary(ps, out);
    if (++ps->nesting > MAX_NESTING)
        return fail_at(ps, ps->start, "expected at most %d nested unary operators, got more", MAX_NESTING);
    if (next(ps) || parse_unary(ps, out) || need_number(ps, *out))
        return -1;
    ps->nesting--;
    out->pos = pos;
    out->tag = TAG_NUM;
    if (tok == T_MINUS)
        return emit(ps, OP_NEG, 0, 0);
    if (tok == T_NOT)
        return emit(ps, OP_NOT, 0, 0);
    return 0;
}

/* One left-associative binary level: operands from `sub`, operators from
 * the token/op table. */
typedef int (*level_fn)(parser *, operand *);

static int parse_level(parser *ps, operand *out, level_fn sub, const int *toks, const int *ops, int nops)
{
    if (sub(ps, out))
        return -1;
    for (;;) {
        int k, op;
        operand rhs;
        for (k = 0; k < nops; k++)
            if (ps->tok == toks[k])
                break;
        if (k == nops)
            return 0;
        op = ops[k];
        if (next(ps) || sub(ps, &rhs))
            return -1;
        if (op == OP_EQ || op == OP_NE) {
            if (out->tag == TAG_STRING && rhs.tag == TAG_STRING)
                return fail_at(ps, rhs.pos, "expected pattern or path on one side of the comparison, "
                                            "got two quoted names");
            if (out->tag == TAG_STRING && rhs.tag != TAG_ENUM)
                return fail_at(ps, rhs.pos, "expected pattern or path to compare with a quoted name, "
                                            "got another operand");
            if (rhs.tag == TAG_STRING && out->tag != TAG_ENUM)
                return fail_at(ps, out->pos, "expected pattern or path to compare with a quoted name, "
                                             "got another operand");
            if ((out->tag == TAG_STRING && resolve_name(ps, *out, rhs.param)) ||
                (rhs.tag == TAG_STRING && resolve_name(ps, rhs, out->param)))
                return -1;
        } else if (need_number(ps, *out) || need_number(ps, rhs)) {
            return -1;
        }
        out->tag = TAG_NUM;
        if (emit(ps, op, 0, 0))
            return -1;
    }
}

static int parse_term(parser *ps, operand *out)
{
    static const int toks[] = {T_STAR, T_SLASH, T_PCT}, ops[] = {OP_MUL, OP_DIV, OP_MOD};
    return parse_level(ps, out, parse_unary, toks, ops, 3);
}

static int parse_sum(parser *ps, operand *out)
{
    static const int toks[] = {T_PLUS, T_MINUS}, ops[] = {OP_ADD, OP_SUB};
    return parse_level(ps, out, parse_term, toks, ops, 2);
}

static int parse_rel(parser *ps, operand *out)
{
    static const int toks[] = {T_LT, T_LE, T_GT, T_GE}, ops[] = {OP_LT, OP_LE, OP_GT, OP_GE};
    return parse_level(ps, out, parse_sum, toks, ops, 4);
}

static int parse_eq(parser *ps, operand *out)
{
    static const int toks[] = {T_EQ, T_NE}, ops[] = {OP_EQ, OP_NE};
    return parse_level(ps, out, parse_rel, toks, ops, 2);
}

static int parse_and(parser *ps, operand *out)
{
    static const int toks[] = {T_AND}, ops[] = {OP_AND};
    return parse_level(ps, out, parse_eq, toks, ops, 1);
}

static int parse_or(parser *ps, operand *out)
{
    static const int toks[] = {T_OR}, ops[] = {OP_OR};
    return parse_level(ps, out, parse_and, toks, ops, 1);
}

int pascal_expr_compile(const char *text, pascal_expr **out, size_t *err_offset, pascal_error *err)
{
    return pascal_expr_compile_for(NULL, text, out, err_offset, err);
}

int pascal_expr_compile_for(const pascal_spec *spec, const char *text, pascal_expr **out,
                            size_t *err_offset, pascal_error *err)
{
    parser ps;
    operand top;
    memset(&ps, 0, sizeof ps);
    ps.spec = spec;
    *out = NULL;
    if (err_offset)
        *err_offset = 0;
    ps.text = text;
    ps.err = err;
    ps.e = calloc(1, sizeof *ps.e);
    if (!ps.e)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory compiling an expression");
    if (next(&ps) == 0) {
        if (ps.tok == T_END)
            fail_expected(&ps, "an expression");
        else if (parse_or(&ps, &top) == 0 && need_number(&ps, top) == 0 && ps.tok != T_END)
            fail_expected(&ps, "an operator or the end of the expression");
    }
    if (ps.failed) {
        if (err_offset)
            *err_offset = ps.err_offset;
        pascal_expr_free(ps.e);
        return err ? err->code : PASCAL_EINPUT;
    }
    *out = ps.e;
    return 0;
}

void pascal_expr_free(pascal_expr *e)
{
    if (!e)
        return;
    free(e->code);
    free(e);
}

int pascal_expr_truth(double x)
{
    return x != 0 && !isnan(x);
}

double pascal_expr_eval(const pascal_expr *e, const double *v)
{
    double st[PASCAL_EXPR_STACK];
    int sp = 0;
    for (int i = 0; i < e->n; i++) {
        const instr *in = &e->code[i];
        double a, b;
        switch (in->op) {
        case OP_CONST:
            st[sp++] = in->value;
            continue;
        case OP_PARAM:
            st[sp++] = v[in->param];
            continue;
        case OP_NEG:
            st[sp - 1] = -st[sp - 1];
            continue;
        case OP_NOT:
            st[sp - 1] = pascal_expr_truth(st[sp - 1]) ? 0.0 : 1.0;
            continue;
        default:
            break;
        }
        b = st[--sp];
        a = st[sp - 1];
        switch (in->op) {
        case OP_ADD: a = a + b; break;
        case OP_SUB: a = a - b; break;
        case OP_MUL: a = a * b; break;
        case OP_DIV: a = a / b; break;
        case OP_MOD: a = fmod(a, b); break;
        case OP_LT: a = a < b; break;
        case OP_LE: a = a <= b; break;
        case OP_GT: a = a > b; break;
        case OP_GE: a = a >= b; break;
        case OP_EQ: a = a == b; break;
        case OP_NE: a = a != b && !isnan(a) && !isnan(b); break;
        case OP_AND: a = pascal_expr_truth(a) && pascal_expr_truth(b); break;
        case OP_OR: a = pascal_expr_truth(a) || pascal_expr_truth(b); break;
        default: a = NAN; break;
        }
        st[sp - 1] = a;
    }
    return sp == 1 ? st[0] : NAN;
}

uint64_t pascal_expr_params(const pascal_expr *e)
{
    return e ? e->params : 0;
}
