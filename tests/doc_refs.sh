#!/bin/sh
# doc_refs.sh — every reference to a section of the repository's documents points at a
# section that exists: `docs/architecture.md "Layers"`, `README "Writing a lesson"`,
# `README, "Set up"`, `bench/README.md "Translating tier"` (a plain README is the top
# one) name a heading of that file, whole or up to a " (" that follows it ("Lockstep
# regions" names "Lockstep regions (sim/exec_issue.c)"); a reference may wrap onto the
# next comment line. Nothing cites an ARCHITECTURE.md, which is not in the repository
# (docs/architecture.md is). Reads the sources, scripts, documents and lessons.
# Exit: 0 pass, 1 a reference to a missing section (file: reference, one per line).
set -u
cd "$(dirname "$0")/.." || exit 1
files=$(find sim runtime tui cli trace tests bench tools fuzz lessons docs .ci \
          -type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.md' -o -name '*.cu' \
          -o -name '*.def' -o -name '*.dict' -o -name '*.json' -o -name run \) \
          -not -path tests/doc_refs.sh 2>/dev/null; echo Makefile README.md)
# shellcheck disable=SC2086
perl -e '
  my %heads;
  sub heads {
      my ($doc) = @_;
      return $heads{$doc} if $heads{$doc};
      open(my $h, "<", $doc) or return $heads{$doc} = [];
      local $/ = "\n";
      my @h; my $fence = 0;
      while (<$h>) {
          $fence = !$fence if /^```/;
          push @h, $1 if !$fence && /^#+\s+(.*?)\s*$/;
      }
      return $heads{$doc} = \@h;
  }
  my $bad = 0;
  for my $f (@ARGV) {
      open(my $fh, "<", $f) or next;
      local $/; my $t = <$fh>;
      # a comment that goes on over the next line reads as one line
      $t =~ s{\n[ \t]*(?:\*|//|#|--)?[ \t]*}{ }g;
      while ($t =~ /\bARCHITECTURE\.md\b/g) {
          print "$f: cites ARCHITECTURE.md, which is not in the repository (docs/architecture.md)\n";
          $bad++;
      }
      while ($t =~ m{((?:docs/architecture|bench/README|fuzz/README)\.md|\bREADME(?:\.md)?)(?:\x27s)?,?[ \t]+"([^"]{2,80})"}g) {
          my ($doc, $sec) = ($1, $2);
          $doc = "README.md" if $doc =~ /^README/;
          next if grep { $_ eq $sec || index($_, "$sec (") == 0 } @{heads($doc)};
          print "$f: $doc \"$sec\": no such section\n";
          $bad++;
      }
  }
  exit($bad ? 1 : 0);
' $files || { echo "doc_refs: FAIL (a reference above names a section that does not exist)"; exit 1; }
echo "doc_refs: every reference names a section that exists"
