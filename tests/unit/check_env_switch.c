/*
 * Checks of the one on/off parser, ompext_env_switch (abi.h), which the
 * runtime patch reads OMPEXT and OMPEXT_VERBOSE with, and of the plugin's
 * on/off variables built on it (config.c): OMPEXT_VERBOSE, OMPEXT_STATS and
 * OMPEXT_HIERARCHY take every on and off word, keep their default when
 * unset or empty, and warn once, naming the variable, and keep the default
 * for a word the parser does not know; OMPEXT_HIERARCHY also takes auto,
 * its default.  Single-threaded.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#endif

#include "test_services.h"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const on_words[] = {"on", "1", "true", "yes"};
static const char *const off_words[] = {"off", "0", "false", "no"};
static const char *const unknown_words[] = {"",    "2",  "ON",    "On",
                                            "of",  "on ", " on",  "yess",
                                            "nope", "-1", "enable"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void check_parser(void) {
  for (size_t i = 0; i < COUNT(on_words); ++i)
    if (ompext_env_switch(on_words[i]) != 1)
      tu_fail("ompext_env_switch(\"%s\") is not 1", on_words[i]);
  for (size_t i = 0; i < COUNT(off_words); ++i)
    if (ompext_env_switch(off_words[i]) != 0)
      tu_fail("ompext_env_switch(\"%s\") is not 0", off_words[i]);
  for (size_t i = 0; i < COUNT(unknown_words); ++i)
    if (ompext_env_switch(unknown_words[i]) != -1)
      tu_fail("ompext_env_switch(\"%s\") is not -1", unknown_words[i]);
  if (ompext_env_switch(NULL) != -1)
    tu_fail("ompext_env_switch(NULL) is not -1");
}

typedef struct variable {
  const char *name;
  int dflt;
  size_t offset; /* of its int in ompext_config_t */
} variable_t;

static const variable_t variables[] = {
    {"OMPEXT_VERBOSE", 0, offsetof(ompext_config_t, verbose)},
    {"OMPEXT_STATS", 0, offsetof(ompext_config_t, stats)},
    {"OMPEXT_HIERARCHY", OMPEXT_HIERARCHY_AUTO,
     offsetof(ompext_config_t, hierarchy)},
};

/* The variable's value after parsing the environment with `text` set (NULL:
   unset); *warned gets whether a warning named the variable. */
static int parse_with(const variable_t *v, const char *text, int *warned) {
  if (text)
    setenv(v->name, text, 1);
  else
    unsetenv(v->name);
  FILE *warn = tmpfile();
  if (!warn)
    tu_fatal("tmpfile failed");
  ompext_config_t cfg;
  ompext_config_parse(&cfg, warn);
  char buf[512] = "";
  rewind(warn);
  const size_t got = fread(buf, 1, sizeof(buf) - 1, warn);
  buf[got] = '\0';
  fclose(warn);
  *warned = strstr(buf, v->name) != NULL;
  unsetenv(v->name);
  int value;
  memcpy(&value, (const char *)&cfg + v->offset, sizeof(value));
  return value;
}

static void expect(const variable_t *v, const char *text, int value,
                   int warning) {
  int warned;
  const int got = parse_with(v, text, &warned);
  if (got != value || warned != warning)
    tu_fail("%s=%s%s%s: value %d (expected %d), %s", v->name,
            text ? "\"" : "", text ? text : "(unset)", text ? "\"" : "", got,
            value, warned ? "warned" : "no warning");
}

int main(void) {
  check_parser();
  for (size_t i = 0; i < COUNT(variables); ++i) {
    const variable_t *v = &variables[i];
    expect(v, NULL, v->dflt, 0);
    expect(v, "", v->dflt, 0);
    for (size_t w = 0; w < COUNT(on_words); ++w)
      expect(v, on_words[w], 1, 0);
    for (size_t w = 0; w < COUNT(off_words); ++w)
      expect(v, off_words[w], 0, 0);
    expect(v, "maybe", v->dflt, 1);
  }
  expect(&variables[2], "auto", OMPEXT_HIERARCHY_AUTO, 0);
  const unsigned long bad = tu_failures();
  printf("check_env_switch: %s\n", bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
