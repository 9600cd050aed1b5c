/*
 * From a calibration file written by ompext-calibrate on this machine,
 * writes the broken variants the plugin must refuse (each with one warning
 * and the default parameters):
 *   foreign.txt    the fingerprint of another machine
 *   version.txt    a calibration format version this plugin does not read
 *   truncated.txt  the first half of the file
 *   corrupt.txt    a parameter value that is not a number
 * usage: calfile_variants <valid file> <output directory>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char *text = malloc(1 << 20);
  *len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
  fclose(f);
  if (text)
    text[*len] = '\0';
  return text;
}

/* Writes text with the first occurrence of `from` replaced by `to`. */
static int write_replaced(const char *dir, const char *name, const char *text,
                          const char *from, const char *to) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  const char *at = strstr(text, from);
  FILE *f = fopen(path, "w");
  if (!at || !f) {
    fprintf(stderr, "calfile_variants: cannot make %s\n", path);
    if (f)
      fclose(f);
    return 1;
  }
  fwrite(text, 1, (size_t)(at - text), f);
  fputs(to, f);
  fputs(at + strlen(from), f);
  return fclose(f) != 0;
}

int main(int argc, char **argv) {
  size_t len;
  char *text = argc == 3 ? slurp(argv[1], &len) : NULL;
  if (!text) {
    fprintf(stderr, "usage: calfile_variants <valid file> <output dir>\n");
    return 2;
  }
  int bad = 0;
  bad |= write_replaced(argv[2], "foreign.txt", text, "# fingerprint ",
                        "# fingerprint 0000000000000000 was ");
  bad |= write_replaced(argv[2], "version.txt", text,
                        "# omp-ext calibration v1", "# omp-ext calibration v9");
  bad |= write_replaced(argv[2], "corrupt.txt", text, "\nR_R ",
                        "\nR_R not-a-number # ");
  text[len / 2] = '\0';
  bad |= write_replaced(argv[2], "truncated.txt", text, "#", "#");
  free(text);
  return bad;
}
