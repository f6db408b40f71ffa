#!/bin/sh
# The image's one entry point. Migrations run only when asked (`migrate`, e.g. the compose
# one-shot service or a release step), never when web workers start: several replicas starting
# at once must not race to alter the schema.
#
#   web (default)        gunicorn with gunicorn.conf.py (settings from the environment)
#   migrate              apply migrations (which also create the cache tables)
#   load-catalog [FILE]  load the shipped catalog file (or FILE) into the database
#   worker [ARGS…]       run background tasks (manage.py db_worker), e.g. recomputing related
#                        sources after catalog changes; ARGS go to db_worker
#   cron                 run the periodic jobs of readinglist/schedule.py when due
#                        (manage.py run_schedule)
#   manage ARGS…         any manage.py command
#
# DRY_RUN=1 prints the commands instead of running them (the tests use it).
set -eu

PYTHON="${PYTHON:-python}"
GUNICORN="${GUNICORN:-gunicorn}"

run() {
    if [ "${DRY_RUN:-}" = "1" ]; then
        echo "$*"
    else
        "$@"
    fi
}

command="${1:-web}"
[ "$#" -gt 0 ] && shift

case "$command" in
    web)
        # exec: gunicorn replaces the shell, so it receives the container's stop signal itself.
        if [ "${DRY_RUN:-}" = "1" ]; then
            echo "$GUNICORN --config gunicorn.conf.py readinglist.wsgi:application${*:+ $*}"
        else
            exec "$GUNICORN" --config gunicorn.conf.py readinglist.wsgi:application "$@"
        fi
        ;;
    migrate)
        # migrate also creates the cache tables (a post-migrate step in catalog/apps.py).
        run "$PYTHON" manage.py migrate --noinput "$@"
        ;;
    load-catalog)
        run "$PYTHON" manage.py load_catalog "$@"
        ;;
    worker)
        # exec: the worker receives the container's stop signal itself, finishes the task it is
        # running and exits. Never --reload: a reload would stop a task halfway.
        set -- manage.py db_worker --no-reload --interval 1 "$@"
        if [ "${DRY_RUN:-}" = "1" ]; then
            echo "$PYTHON $*"
        else
            exec "$PYTHON" "$@"
        fi
        ;;
    cron)
        # exec: the scheduler receives the container's stop signal itself.
        if [ "${DRY_RUN:-}" = "1" ]; then
            echo "$PYTHON manage.py run_schedule"
        else
            exec "$PYTHON" manage.py run_schedule
        fi
        ;;
    manage)
        run "$PYTHON" manage.py "$@"
        ;;
    -h|--help|help)
        sed -n '2,15p' "$0"
        ;;
    *)
        echo "docker-entrypoint.sh: unknown command '$command' (web, migrate, load-catalog, worker, cron, manage)" >&2
        exit 64
        ;;
esac
