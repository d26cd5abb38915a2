package ai.lango.it;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Assignable;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.exporter.ArchiveExportException;
import org.jboss.shrinkwrap.api.exporter.FileExistsException;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * How the Arquillian container writes a deployment to the server's disk ({@link SharedDeployments}
 * installs it in ShrinkWrap's place): the same entries as ShrinkWrap's own zip exporter, stored
 * instead of compressed, in the calling thread. The WAR is 45 MB of libraries that are already
 * compressed; ShrinkWrap's exporter deflated them again through a pipe and a second thread, about
 * 3 CPU-seconds per deployment on the chain of Arquillian classes (docs/operations.md).
 */
public final class StoredZipExporter implements ZipExporter {

    private final Archive<?> archive;

    /** ShrinkWrap makes an exporter of an archive with this constructor. */
    public StoredZipExporter(Archive<?> archive) {
        this.archive = archive;
    }

    @Override
    public <T extends Assignable> T as(Class<T> type) {
        return archive.as(type);
    }

    @Override
    public void exportTo(OutputStream target) {
        try {
            ZipOutputStream zip = new ZipOutputStream(target);
            for (Map.Entry<ArchivePath, Node> entry : archive.getContent().entrySet()) {
                String name = entry.getKey().get().substring(1);
                if (entry.getValue().getAsset() == null) {
                    zip.putNextEntry(stored(name + "/", new byte[0]));
                    zip.closeEntry();
                    continue;
                }
                byte[] content;
                try (InputStream in = entry.getValue().getAsset().openStream()) {
                    content = in.readAllBytes();
                }
                zip.putNextEntry(stored(name, content));
                zip.write(content);
                zip.closeEntry();
            }
            zip.finish();
            zip.flush();
        } catch (IOException e) {
            throw new ArchiveExportException("cannot export " + archive.getName(), e);
        }
    }

    private static ZipEntry stored(String name, byte[] content) {
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(content.length);
        entry.setCompressedSize(content.length);
        CRC32 crc = new CRC32();
        crc.update(content);
        entry.setCrc(crc.getValue());
        return entry;
    }

    @Override
    public InputStream exportAsInputStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        exportTo(bytes);
        return new ByteArrayInputStream(bytes.toByteArray());
    }

    @Override
    public void exportTo(File target, boolean overwrite) {
        if (target.exists() && !overwrite) {
            throw new FileExistsException(target + " exists");
        }
        try (OutputStream out = Files.newOutputStream(target.toPath())) {
            exportTo(out);
        } catch (IOException e) {
            throw new ArchiveExportException("cannot write " + target, e);
        }
    }

    @Override
    public void exportTo(File target) {
        exportTo(target, false);
    }
}
