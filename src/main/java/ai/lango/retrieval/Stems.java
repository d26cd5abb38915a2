package ai.lango.retrieval;

import org.tartarus.snowball.ext.PorterStemmer;

/** Porter's stemmer (Lucene's Snowball port), for whoever compares words by their stems (evaluation's ROUGE). */
public final class Stems {

    private Stems() {
    }

    /** The stem of one lower-case word. */
    public static String of(String word) {
        PorterStemmer stemmer = new PorterStemmer();
        stemmer.setCurrent(word);
        stemmer.stem();
        return stemmer.getCurrent();
    }
}
